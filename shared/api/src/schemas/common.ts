import { z } from 'zod';
import { ERROR_CODES } from '../errors.ts';

/** Timestamps cross the wire as ISO 8601 strings in UTC. */
export const Timestamp = z.iso.datetime().meta({ example: '2026-01-31T12:00:00.000Z' });

export const Id = z.uuid().meta({ example: '0b6f2f6e-3c1a-4a53-9d0e-2f4b7c1d9a10' });

export const IdParams = z.object({ id: Id });

export const Ok = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' });

/** The one error shape every `/api` route answers with; `issues` only for validation failures. */
export const ErrorResponse = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      status: z.number().int(),
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'Error' });

export type ErrorResponse = z.infer<typeof ErrorResponse>;
