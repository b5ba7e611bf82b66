import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Language } from '@atelier/i18n/locale';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Sent as Content-Language. */
  language?: Language;
}

function message(from: string, { language, ...mail }: Mail) {
  return { from, ...mail, ...(language ? { headers: { 'content-language': language } } : {}) };
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Where undelivered mail is written when no SMTP server is configured; null with SMTP. */
  outboxDir: string | null;
}

/**
 * SMTP when `smtpUrl` is set (smtp://user:pass@host:587, smtps://...); otherwise each message is
 * written as an .eml file into the outbox folder, so a self-hoster without mail can still follow a
 * password-reset link.
 */
export function createMailer(options: { smtpUrl: string | null; from: string; outboxDir: string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      outboxDir: null,
      async send(mail) {
        await transport.sendMail(message(options.from, mail));
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    outboxDir: options.outboxDir,
    async send(mail) {
      const info = await transport.sendMail(message(options.from, mail));
      mkdirSync(options.outboxDir, { recursive: true, mode: 0o700 });
      // Sortable names: the newest message is the last one listed.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`;
      writeFileSync(join(options.outboxDir, name), info.message as Buffer, { mode: 0o600 });
    },
  };
}

/** The outbox's messages, oldest first. */
export function outboxMessages(outboxDir: string): string[] {
  try {
    return readdirSync(outboxDir)
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .map((f) => join(outboxDir, f));
  } catch {
    return [];
  }
}

/** Header values as written: non-ASCII subjects travel as RFC 2047 encoded words (`=?UTF-8?B?...?=`). */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/(\?=)\s+(?==\?)/g, '$1') // the space between two encoded words is not part of the text
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
}

/**
 * Reads an outbox message back as text: the headers as written, the body decoded (nodemailer
 * quoted-printable-encodes long lines, which would break a reset link in two).
 */
export function readOutboxMessage(file: string): { headers: Record<string, string>; text: string } {
  const raw = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  const split = raw.indexOf('\n\n');
  const headers: Record<string, string> = {};
  for (const line of raw.slice(0, split).replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = decodeEncodedWords(line.slice(colon + 1).trim());
  }
  const body = raw.slice(split + 2);
  const encoding = headers['content-transfer-encoding']?.toLowerCase();
  let text = body;
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`);
    text = decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  } else if (encoding === 'base64') {
    text = Buffer.from(body, 'base64').toString('utf8');
  }
  return { headers, text };
}
