import { useEffect, useRef } from 'react';
import { useLocale } from '@atelier/i18n';
import { usePublicConfig } from '@atelier/config/store';

interface Turnstile {
  render(el: HTMLElement, options: { sitekey: string; language?: string; callback(token: string): void; 'expired-callback'(): void; 'error-callback'(): void }): string;
  remove(id: string): void;
}

/**
 * The bot-challenge widget (Turnstile-compatible) when a site key is configured; its token goes
 * with the form. The shell loads the script on sign-in pages; this renders once it is there.
 */
export function BotChallenge({ onToken }: { onToken: (token: string | null) => void }) {
  const config = usePublicConfig();
  const { language } = useLocale();
  const box = useRef<HTMLDivElement>(null);
  const siteKey = config?.botChallengeSiteKey ?? null;
  useEffect(() => {
    if (!siteKey || !box.current) return;
    let id: string | null = null;
    let timer: ReturnType<typeof setInterval> | null = null;
    const mount = () => {
      const turnstile = (window as unknown as { turnstile?: Turnstile }).turnstile;
      if (!turnstile || !box.current) return false;
      id = turnstile.render(box.current, {
        sitekey: siteKey,
        language,
        callback: (token) => onToken(token),
        'expired-callback': () => onToken(null),
        'error-callback': () => onToken(null),
      });
      return true;
    };
    if (!mount()) timer = setInterval(() => mount() && timer && clearInterval(timer), 200);
    return () => {
      if (timer) clearInterval(timer);
      if (id) (window as unknown as { turnstile?: Turnstile }).turnstile?.remove(id);
    };
  }, [siteKey, language, onToken]);
  return siteKey ? <div ref={box} data-testid="bot-challenge" /> : null;
}
