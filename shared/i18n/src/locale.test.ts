import { describe, expect, it } from 'vitest';
import { detectLanguage, languageCookie, localePath, readLanguageCookie, splitLocalePath } from './locale.ts';
import { formatNumber } from './format.ts';

describe('locale paths', () => {
  it('splits a language prefix off', () => {
    expect(splitLocalePath('/ja/dashboard/image')).toEqual({ prefix: 'ja', path: '/dashboard/image' });
    expect(splitLocalePath('/ja')).toEqual({ prefix: 'ja', path: '/' });
    expect(splitLocalePath('/en/pricing')).toEqual({ prefix: 'en', path: '/pricing' });
    expect(splitLocalePath('/pricing')).toEqual({ prefix: null, path: '/pricing' });
    // Two letters that are not a supported language are a path, not a prefix.
    expect(splitLocalePath('/xx/pricing')).toEqual({ prefix: null, path: '/xx/pricing' });
    expect(splitLocalePath('/japan')).toEqual({ prefix: null, path: '/japan' });
  });

  it('builds prefixed paths, English unprefixed when asked', () => {
    expect(localePath('de', '/pricing')).toBe('/de/pricing');
    expect(localePath('de', '/')).toBe('/de');
    expect(localePath(null, 'pricing')).toBe('/pricing');
  });
});

describe('language detection and cookie', () => {
  it('maps browser tags to the first supported language', () => {
    expect(detectLanguage(['zh-CN', 'en'])).toBe('zh');
    expect(detectLanguage(['pt-BR'])).toBe('pt');
    expect(detectLanguage(['nl-NL', 'tr-TR'])).toBe('tr');
    expect(detectLanguage(['nl'])).toBe('en');
    expect(detectLanguage([])).toBe('en');
  });

  it('writes the seed cookie: 365 days, SameSite=Lax, path /', () => {
    expect(languageCookie('ko', false)).toBe('atelier_lang=ko; Max-Age=31536000; Path=/; SameSite=Lax');
    expect(languageCookie('ko', true)).toMatch(/; Secure$/);
    expect(readLanguageCookie('a=1; atelier_lang=fr; b=2')).toBe('fr');
    expect(readLanguageCookie('atelier_lang=xx')).toBeNull();
  });

  it('formats numbers with Intl per language', () => {
    expect(formatNumber('de', 1234.5)).toBe('1.234,5');
    expect(formatNumber('en', 1234.5)).toBe('1,234.5');
  });
});
