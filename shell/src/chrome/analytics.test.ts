import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PUBLIC_CONFIG, parsePublicConfig } from '@atelier/config';
import { analyticsScripts, botChallengeScript, hasAnalytics, injectScript, readConsent, writeConsent } from './analytics.ts';

const configured = parsePublicConfig({
  analytics: { webAnalyticsId: 'G-AB12', russianSearchAnalyticsId: '123', microsoftAnalyticsId: 'cl1', sessionRecordingId: '99', adsAccountId: 'ca-pub-1' },
  botChallengeSiteKey: '0x4AAA',
});

beforeEach(() => {
  localStorage.clear();
  document.head.innerHTML = '';
});

describe('third-party scripts', () => {
  it('loads nothing that is not configured', () => {
    expect(analyticsScripts(DEFAULT_PUBLIC_CONFIG)).toEqual([]);
    expect(botChallengeScript(DEFAULT_PUBLIC_CONFIG)).toBeNull();
    expect(hasAnalytics(DEFAULT_PUBLIC_CONFIG)).toBe(false);
  });

  it('builds one script per configured service, with the id in place', () => {
    const scripts = analyticsScripts(configured);
    expect(scripts.map((s) => new URL(s.src).host)).toEqual([
      'www.googletagmanager.com',
      'mc.yandex.ru',
      'www.clarity.ms',
      'static.hotjar.com',
      'pagead2.googlesyndication.com',
    ]);
    expect(scripts[0]!.src).toContain('id=G-AB12');
    expect(scripts[0]!.init).toContain('"G-AB12"');
    expect(botChallengeScript(configured)?.src).toContain('challenges.cloudflare.com/turnstile');
  });

  it('injects a script once', () => {
    const [script] = analyticsScripts(configured);
    injectScript(script!);
    injectScript(script!);
    expect(document.head.querySelectorAll(`#${script!.id}`)).toHaveLength(1);
    expect(document.head.querySelectorAll(`#${script!.id}-init`)).toHaveLength(1);
  });

  it('remembers the consent choice', () => {
    expect(readConsent()).toBeNull();
    writeConsent('rejected');
    expect(readConsent()).toBe('rejected');
    localStorage.setItem('atelier_consent', 'bogus');
    expect(readConsent()).toBeNull();
  });
});
