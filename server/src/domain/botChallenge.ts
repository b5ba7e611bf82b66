import { isIP } from 'node:net';
import type { BotChallengeConfig } from '../config.ts';
import { DomainError } from './errors.ts';

/**
 * The bot challenge on the password forms (register, login, forgot-password), Turnstile-compatible:
 * the widget in the page gives the browser a token, and the server asks the verify service whether
 * it is genuine. Tokens are single-use at the service, so a replayed one is refused there.
 */
export interface BotChallenge {
  /** Whether a token is required at all (a secret is configured). */
  readonly required: boolean;
  /** Resolves when the token is accepted; throws BOT_CHECK_FAILED otherwise. */
  verify(token: string | undefined, remoteIp: string): Promise<void>;
}

const refused = (detail: string) => new DomainError('BOT_CHECK_FAILED', 403, detail);

export function createBotChallenge(config: BotChallengeConfig | null, options: { timeoutMs?: number } = {}): BotChallenge {
  if (!config) return { required: false, verify: async () => undefined };
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    required: true,
    async verify(token, remoteIp) {
      if (!token) throw refused('no bot-challenge token');
      const form = new URLSearchParams({ secret: config.secret, response: token });
      if (isIP(remoteIp)) form.set('remoteip', remoteIp);
      let outcome: { success?: unknown; 'error-codes'?: unknown };
      try {
        const res = await fetch(config.verifyUrl, { method: 'POST', body: form, signal: AbortSignal.timeout(timeoutMs) });
        if (!res.ok) throw new Error(`it answered ${res.status}`);
        outcome = (await res.json()) as typeof outcome;
      } catch (err) {
        // Fails closed: while the service cannot vouch for anyone, the forms refuse everyone.
        console.error('bot challenge: the verify service failed:', (err as Error).message);
        throw refused('verify service unavailable');
      }
      if (outcome.success !== true) throw refused(`token refused: ${JSON.stringify(outcome['error-codes'] ?? [])}`);
    },
  };
}

/** The token from a form body: our own field, or the name the Turnstile widget gives its input. */
export function botChallengeToken(body: { botChallengeToken?: string | undefined; 'cf-turnstile-response'?: string | undefined }): string | undefined {
  return body.botChallengeToken ?? body['cf-turnstile-response'];
}
