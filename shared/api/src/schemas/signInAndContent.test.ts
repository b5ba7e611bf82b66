import { describe, expect, it } from 'vitest';
import { ContentSlug, LoginBody, OAuthCallbackResult, ReturnPath } from './index.ts';

describe('sign-in and content schemas', () => {
  it('accept only paths on this site as returnTo', () => {
    for (const ok of ['/', '/ja/dashboard/image', '/dashboard?tab=1#top']) expect(ReturnPath.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'dashboard', '/a b', '']) {
      expect(ReturnPath.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('read the callback page outcome', () => {
    expect(OAuthCallbackResult.parse({ status: 'error', code: 'OAUTH_CANCELLED', provider: 'github' })).toMatchObject({ code: 'OAUTH_CANCELLED' });
    expect(OAuthCallbackResult.safeParse({ status: 'error', code: 'MADE_UP' }).success).toBe(false);
  });

  it('carry the bot-challenge token under either name', () => {
    const body = { email: 'a@example.com', password: 'pw' };
    expect(LoginBody.parse({ ...body, botChallengeToken: 't' }).botChallengeToken).toBe('t');
    expect(LoginBody.parse({ ...body, 'cf-turnstile-response': 't' })['cf-turnstile-response']).toBe('t');
  });

  it('allow slugs that can name no path outside their section', () => {
    expect(ContentSlug.safeParse('getting-started').success).toBe(true);
    for (const bad of ['..', '../x', 'a/b', 'A', '-a', 'a.md', 'a%2Fb', 'x'.repeat(101)]) expect(ContentSlug.safeParse(bad).success, bad).toBe(false);
  });
});
