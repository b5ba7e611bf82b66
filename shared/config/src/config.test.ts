import { describe, expect, it } from 'vitest';
import { DEFAULT_PUBLIC_CONFIG, applyTheme, contrastingText, parsePublicConfig } from './index.ts';

describe('public config', () => {
  it('keeps valid values', () => {
    const c = parsePublicConfig({ primaryColor: '#ff0066', siteUrl: 'https://atelier.example/', analytics: { webAnalyticsId: 'G-ABC123' } });
    expect(c.primaryColor).toBe('#ff0066');
    expect(c.siteUrl).toBe('https://atelier.example');
    expect(c.analytics.webAnalyticsId).toBe('G-ABC123');
    expect(c.analytics.microsoftAnalyticsId).toBeNull();
  });

  it('falls back on anything malformed, never injecting markup', () => {
    const c = parsePublicConfig({ primaryColor: 'red;}</style>', siteUrl: 'javascript:alert(1)', analytics: { webAnalyticsId: '"><script>' } });
    expect(c).toEqual(DEFAULT_PUBLIC_CONFIG);
    expect(parsePublicConfig('nonsense')).toEqual(DEFAULT_PUBLIC_CONFIG);
  });

  it('applies the primary colour as a design token', () => {
    applyTheme(parsePublicConfig({ primaryColor: '#123456' }));
    expect(document.documentElement.style.getPropertyValue('--atelier-primary')).toBe('#123456');
    expect(document.documentElement.style.getPropertyValue('--atelier-primary-contrast')).toBe('#ffffff');
  });

  it('keeps text on the primary colour readable', () => {
    expect(contrastingText('#4f46e5')).toBe('#ffffff');
    expect(contrastingText('#ffd400')).toBe('#15171c');
    expect(contrastingText('#fff')).toBe('#15171c');
    expect(contrastingText('#000')).toBe('#ffffff');
  });
});
