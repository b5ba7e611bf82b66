import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '@atelier/i18n/locale';
import { outboxMessages, readOutboxMessage } from '../src/mail/mailer.ts';
import { passwordResetLink, passwordResetMail } from '../src/mail/passwordResetMail.ts';
import { PASSWORD_RESET } from '../src/mail/templates.ts';
import { DATABASES } from './support/databases.ts';
import { call, signUp } from './support/http.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

describe('the password-reset mail templates', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('are written in %s, not left in English', (lang) => {
    const words = PASSWORD_RESET[lang];
    const en = PASSWORD_RESET.en;
    for (const key of ['subject', 'intro', 'ignore'] as const) {
      expect(words[key].trim(), key).not.toBe('');
      expect(words[key], key).not.toBe(en[key]);
    }
    expect(words.action(45)).toContain('45');
    expect(words.action(45)).not.toBe(en.action(45));
  });

  it('put the link on a line of its own, under the language prefix', () => {
    const link = passwordResetLink('https://atelier.example/', 'tok-en_1', 'ko');
    expect(link).toBe('https://atelier.example/ko/auth/update-password?token=tok-en_1');
    expect(passwordResetLink('https://atelier.example', 'x', 'en')).toBe('https://atelier.example/auth/update-password?token=x');
    const mail = passwordResetMail('a@example.com', link, 60, 'ko');
    expect(mail).toMatchObject({ to: 'a@example.com', language: 'ko', subject: PASSWORD_RESET.ko.subject });
    expect(mail.text.split('\n')).toContain(link);
    expect(mail.text).toContain('60분');
  });
});

describe.each(DATABASES)('the password-reset mail on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  async function requestReset(headers: Record<string, string>) {
    const user = await signUp(server, 'polyglot');
    const res = await call(server, '/api/auth/forgot-password', { body: { email: user.email }, headers });
    expect(res.status).toBe(202);
    return readOutboxMessage(outboxMessages(server.services.mailer.outboxDir!).at(-1)!);
  }

  it('is written in the language of the language cookie', async () => {
    const mail = await requestReset({ cookie: 'atelier_lang=ja', 'accept-language': 'de' });
    expect(mail.headers.subject).toBe('Atelier のパスワード再設定');
    expect(mail.headers['content-language']).toBe('ja');
    expect(mail.text).toContain(PASSWORD_RESET.ja.intro);
    expect(mail.text).toMatch(/\nhttp:\/\/localhost\/ja\/auth\/update-password\?token=[\w-]+\n/);
  });

  it('follows Accept-Language without a cookie', async () => {
    const mail = await requestReset({ 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.5' });
    expect(mail.headers.subject).toBe('Redefina sua senha do Atelier');
    expect(mail.text).toContain(PASSWORD_RESET.pt.action(60));
    expect(mail.text).toContain('http://localhost/pt/auth/update-password?token=');
  });

  it('is English, with the unprefixed link, for anyone else', async () => {
    const mail = await requestReset({ 'accept-language': 'nl' });
    expect(mail.headers.subject).toBe('Reset your Atelier password');
    expect(mail.text).toContain('http://localhost/auth/update-password?token=');
  });

  it('carries a link that resets the password', async () => {
    const mail = await requestReset({ cookie: 'atelier_lang=ru' });
    const token = /\/ru\/auth\/update-password\?token=([\w-]+)/.exec(mail.text)![1]!;
    const res = await call(server, '/api/auth/update-password', { body: { token, password: 'новый пароль 123' } });
    expect(res.status).toBe(200);
  });
});
