import type { PublicConfig } from '@atelier/config';

/**
 * Third-party scripts. Each loads only when its id is configured in /config.json; the analytics
 * ones only after the visitor accepted them in the cookie banner. Ids are validated by
 * parsePublicConfig (`[\w.-]{1,64}`), so they are safe inside a URL and a small init snippet.
 */
export const CONSENT_KEY = 'atelier_consent';
export type Consent = 'accepted' | 'rejected';

export interface ThirdPartyScript {
  /** Stable id, also the element id, so a script is never added twice. */
  id: string;
  src: string;
  /** Set-up that must run before the library loads. */
  init?: string;
}

export function readConsent(storage: Storage = localStorage): Consent | null {
  const v = storage.getItem(CONSENT_KEY);
  return v === 'accepted' || v === 'rejected' ? v : null;
}

export function writeConsent(consent: Consent, storage: Storage = localStorage): void {
  storage.setItem(CONSENT_KEY, consent);
}

export function hasAnalytics(config: PublicConfig): boolean {
  return Object.values(config.analytics).some(Boolean);
}

export function analyticsScripts(config: PublicConfig): ThirdPartyScript[] {
  const a = config.analytics;
  const scripts: ThirdPartyScript[] = [];
  if (a.webAnalyticsId) {
    scripts.push({
      id: 'atelier-web-analytics',
      src: `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(a.webAnalyticsId)}`,
      init: `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config',${JSON.stringify(a.webAnalyticsId)});`,
    });
  }
  if (a.russianSearchAnalyticsId) {
    scripts.push({
      id: 'atelier-russian-search-analytics',
      src: 'https://mc.yandex.ru/metrika/tag.js',
      init: `window.ym=window.ym||function(){(window.ym.a=window.ym.a||[]).push(arguments)};window.ym.l=Date.now();ym(${JSON.stringify(a.russianSearchAnalyticsId)},'init',{clickmap:true,trackLinks:true,accurateTrackBounce:true});`,
    });
  }
  if (a.microsoftAnalyticsId) {
    scripts.push({
      id: 'atelier-microsoft-analytics',
      src: `https://www.clarity.ms/tag/${encodeURIComponent(a.microsoftAnalyticsId)}`,
      init: `window.clarity=window.clarity||function(){(window.clarity.q=window.clarity.q||[]).push(arguments)};`,
    });
  }
  if (a.sessionRecordingId) {
    scripts.push({
      id: 'atelier-session-recording',
      src: `https://static.hotjar.com/c/hotjar-${encodeURIComponent(a.sessionRecordingId)}.js?sv=6`,
      init: `window.hj=window.hj||function(){(window.hj.q=window.hj.q||[]).push(arguments)};window._hjSettings={hjid:${JSON.stringify(a.sessionRecordingId)},hjsv:6};`,
    });
  }
  if (a.adsAccountId) {
    scripts.push({
      id: 'atelier-ads',
      src: `https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=${encodeURIComponent(a.adsAccountId)}`,
    });
  }
  return scripts;
}

/** The bot challenge (Turnstile-compatible): functional, so it needs a site key but no consent. */
export function botChallengeScript(config: PublicConfig): ThirdPartyScript | null {
  if (!config.botChallengeSiteKey) return null;
  return { id: 'atelier-bot-challenge', src: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit' };
}

export function injectScript(script: ThirdPartyScript, doc: Document = document): void {
  if (doc.getElementById(script.id)) return;
  if (script.init) {
    const init = doc.createElement('script');
    init.id = `${script.id}-init`;
    init.textContent = script.init;
    doc.head.appendChild(init);
  }
  const el = doc.createElement('script');
  el.id = script.id;
  el.src = script.src;
  el.async = true;
  el.crossOrigin = 'anonymous';
  doc.head.appendChild(el);
}
