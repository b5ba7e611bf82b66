import { z } from 'zod';
import { ERROR_CODES } from '../errors.ts';
import { Timestamp } from './common.ts';

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email())
  .meta({ example: 'ada@example.com' });

/** Long passphrases are welcome; the upper bound only keeps hashing cheap to refuse. */
export const Password = z.string().min(8).max(256).meta({ example: 'correct horse battery staple' });

export const DisplayName = z.string().trim().min(1).max(80);

export const Role = z.enum(['user', 'admin']).meta({ id: 'Role' });
export type Role = z.infer<typeof Role>;

export const SessionUser = z
  .object({ id: z.uuid(), email: z.string(), name: z.string().nullable() })
  .meta({ id: 'SessionUser' });

/** `GET /api/auth/session`: `user` is null for visitors; role and credits come with a user. */
export const SessionResponse = z
  .object({
    user: SessionUser.nullable(),
    role: Role.optional(),
    credits: z.number().int().optional(),
    expiresAt: Timestamp.optional(),
  })
  .meta({ id: 'Session' });
export type SessionResponse = z.infer<typeof SessionResponse>;

/**
 * The bot challenge's answer (Turnstile-compatible), required on register, login and
 * forgot-password when the server has a challenge secret. `cf-turnstile-response` is the name the
 * widget gives its hidden form field; either key is accepted.
 */
const BotChallengeToken = z.string().min(1).max(2048);
const botChallengeFields = {
  botChallengeToken: BotChallengeToken.optional(),
  'cf-turnstile-response': BotChallengeToken.optional(),
};

export const RegisterBody = z
  .object({ email: Email, password: Password, name: DisplayName.optional(), ...botChallengeFields })
  .meta({ id: 'RegisterBody' });
export type RegisterBody = z.infer<typeof RegisterBody>;

/** Login accepts any password length up to the cap, so old short passwords can still sign in. */
export const LoginBody = z
  .object({ email: Email, password: z.string().min(1).max(256), ...botChallengeFields })
  .meta({ id: 'LoginBody' });
export type LoginBody = z.infer<typeof LoginBody>;

export const ForgotPasswordBody = z.object({ email: Email, ...botChallengeFields }).meta({ id: 'ForgotPasswordBody' });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

/**
 * `/auth/update-password`: either the token from the emailed link, or (signed in) the current
 * password. Exactly one of the two.
 */
export const UpdatePasswordBody = z
  .object({
    token: z.string().min(16).max(256).optional(),
    currentPassword: z.string().min(1).max(256).optional(),
    password: Password,
  })
  .refine((b) => (b.token === undefined) !== (b.currentPassword === undefined), {
    message: 'Give either token or currentPassword',
    path: ['token'],
  })
  .meta({ id: 'UpdatePasswordBody' });
export type UpdatePasswordBody = z.infer<typeof UpdatePasswordBody>;

export const OAuthProviderId = z.enum(['github', 'google']).meta({ id: 'OAuthProviderId' });
export type OAuthProviderId = z.infer<typeof OAuthProviderId>;

export const OAuthProvider = z
  .object({
    id: OAuthProviderId,
    /** The provider's own name, for the button: "GitHub", "Google". */
    name: z.string(),
    /** Navigate the browser here (not fetch): it redirects to the provider. */
    startUrl: z.string().meta({ example: '/api/auth/oauth/github/start' }),
  })
  .meta({ id: 'OAuthProvider' });
export type OAuthProvider = z.infer<typeof OAuthProvider>;

/** `GET /api/auth/providers`: the sign-in providers this server is configured for. */
export const OAuthProviderList = z.object({ providers: z.array(OAuthProvider) }).meta({ id: 'OAuthProviderList' });
export type OAuthProviderList = z.infer<typeof OAuthProviderList>;

/** A path on this site (never another origin) to go back to after signing in: `/ja/dashboard/image`. */
export const ReturnPath = z
  .string()
  .max(512)
  .regex(/^\/(?![/\\])[^\s\\]*$/, 'a path on this site, starting with one /')
  .meta({ example: '/dashboard/image' });

/**
 * What the server appends to `/auth/callback` when the provider sent the browser back:
 * `status=ok`, or `status=error` with an error catalogue `code`; `returnTo` as given at the start.
 */
export const OAuthCallbackResult = z
  .object({
    status: z.enum(['ok', 'error']),
    provider: OAuthProviderId.optional(),
    code: z.enum(ERROR_CODES).optional(),
    returnTo: ReturnPath.optional(),
  })
  .meta({ id: 'OAuthCallbackResult' });
export type OAuthCallbackResult = z.infer<typeof OAuthCallbackResult>;

export const OAuthProviderParams = z.object({ provider: OAuthProviderId });

/** `GET /api/auth/oauth/{provider}/start?returnTo=`. */
export const OAuthStartQuery = z.object({ returnTo: ReturnPath.optional() });

/**
 * What the provider appends to the redirect URI: `code` and `state`, or `error` when the person
 * declined. Loose on purpose: every failure becomes a redirect to `/auth/callback`, not a JSON error.
 */
const CallbackParam = z.string().max(4096).optional();
export const OAuthCallbackQuery = z.object({
  code: CallbackParam,
  state: CallbackParam,
  error: CallbackParam,
  error_description: CallbackParam,
  iss: CallbackParam,
});
