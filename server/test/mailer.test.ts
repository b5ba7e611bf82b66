import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, outboxMessages, readOutboxMessage } from '../src/mail/mailer.ts';
import { passwordResetMail } from '../src/mail/passwordResetMail.ts';
import { FakeSmtp } from './support/fakeSmtp.ts';

const link = `http://localhost:8080/auth/update-password?token=${'t'.repeat(43)}`;

describe('mail', () => {
  const smtp = new FakeSmtp();
  let dir: string;
  beforeAll(async () => {
    await smtp.start();
    dir = mkdtempSync(join(tmpdir(), 'atelier-mail-'));
  });
  afterAll(async () => {
    await smtp.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('goes through SMTP when SMTP_URL is set, and writes no outbox file', async () => {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: 'Atelier <no-reply@atelier.test>', outboxDir: join(dir, 'unused') });
    expect(mailer.outboxDir).toBeNull();
    await mailer.send(passwordResetMail('ada@example.com', link, 60));
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.from).toContain('no-reply@atelier.test');
    expect(smtp.messages[0]!.to[0]).toContain('ada@example.com');
    expect(smtp.messages[0]!.data).toContain('Subject: Reset your Atelier password');
    expect(outboxMessages(join(dir, 'unused'))).toEqual([]);
  });

  it('writes .eml files into the outbox otherwise, readable only by the server’s user', async () => {
    const outbox = join(dir, 'outbox');
    const mailer = createMailer({ smtpUrl: null, from: 'Atelier <no-reply@localhost>', outboxDir: outbox });
    await mailer.send(passwordResetMail('first@example.com', link, 60));
    await mailer.send(passwordResetMail('second@example.com', link, 60));
    const files = outboxMessages(outbox);
    expect(files).toHaveLength(2);
    expect(statSync(files[1]!).mode & 0o777).toBe(0o600);
    const newest = readOutboxMessage(files.at(-1)!);
    expect(newest.headers.to).toBe('second@example.com');
    // The link survives quoted-printable line folding intact.
    expect(newest.text).toContain(`\n${link}\n`);
  });
});
