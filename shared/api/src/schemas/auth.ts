import { z } from 'zod';
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

export const RegisterBody = z
  .object({ email: Email, password: Password, name: DisplayName.optional() })
  .meta({ id: 'RegisterBody' });
export type RegisterBody = z.infer<typeof RegisterBody>;

/** Login accepts any password length up to the cap, so old short passwords can still sign in. */
export const LoginBody = z
  .object({ email: Email, password: z.string().min(1).max(256) })
  .meta({ id: 'LoginBody' });
export type LoginBody = z.infer<typeof LoginBody>;

export const ForgotPasswordBody = z.object({ email: Email }).meta({ id: 'ForgotPasswordBody' });
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
