import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { PublicConfig } from '@atelier/config';
import { useBusEvent } from '@atelier/events';
import { LocaleLink } from '@atelier/i18n';
import { Button } from '@atelier/ui';
import { analyticsScripts, botChallengeScript, hasAnalytics, injectScript, readConsent, writeConsent, type Consent } from './analytics.ts';
import styles from './chrome.module.css';

/**
 * Asks once whether analytics may run, remembers the answer, and loads the configured scripts
 * after an accept. The cookies page reopens it (bus event `consent:manage`).
 */
export function ConsentAndScripts({ config }: { config: PublicConfig | null }) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const [consent, setConsent] = useState<Consent | null>(() => readConsent());
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!config) return;
    if (consent === 'accepted') for (const s of analyticsScripts(config)) injectScript(s);
    setOpen((o) => o || (consent === null && hasAnalytics(config)));
  }, [config, consent]);

  // The bot challenge is needed on the sign-in forms only.
  useEffect(() => {
    const script = config && /^(\/[a-z]{2})?\/auth\//.test(pathname) ? botChallengeScript(config) : null;
    if (script) injectScript(script);
  }, [config, pathname]);

  useBusEvent('consent:manage', () => setOpen(true));

  if (!open || !config) return null;
  const choose = (choice: Consent) => {
    const revoked = consent === 'accepted' && choice === 'rejected';
    writeConsent(choice);
    setConsent(choice);
    setOpen(false);
    // Loaded analytics cannot be unloaded: start clean.
    if (revoked) window.location.reload();
  };
  return (
    <section className={styles.banner} role="dialog" aria-modal="false" aria-labelledby="consent-title" data-testid="consent-banner">
      <h2 id="consent-title">{t('consent.title')}</h2>
      <p>
        {t('consent.body')} <LocaleLink to="/legal/cookies">{t('consent.policy')}</LocaleLink>
      </p>
      <div className={styles.bannerActions}>
        <Button variant="primary" onClick={() => choose('accepted')}>
          {t('consent.accept')}
        </Button>
        <Button onClick={() => choose('rejected')}>{t('consent.reject')}</Button>
      </div>
    </section>
  );
}
