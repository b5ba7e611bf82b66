import { localePath, type Language } from '@atelier/i18n/locale';
import type { Mail } from './mailer.ts';
import { PASSWORD_RESET } from './templates.ts';

/** The reset page under the language's prefix, so the link opens in the language the mail is in. */
export function passwordResetLink(siteUrl: string, token: string, language: Language): string {
  const path = localePath(language === 'en' ? null : language, '/auth/update-password');
  return `${siteUrl.replace(/\/+$/, '')}${path}?token=${encodeURIComponent(token)}`;
}

/** In the language the person used when asking for it (language cookie, then Accept-Language). */
export function passwordResetMail(to: string, link: string, validMinutes: number, language: Language = 'en'): Mail {
  const words = PASSWORD_RESET[language];
  return {
    to,
    language,
    subject: words.subject,
    text: [words.intro, '', words.action(validMinutes), link, '', words.ignore].join('\n'),
  };
}
