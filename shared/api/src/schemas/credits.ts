import { z } from 'zod';
import { Timestamp } from './common.ts';

export const LEDGER_KINDS = ['grant', 'topup', 'spend', 'refund', 'adjustment'] as const;
export const LedgerKind = z.enum(LEDGER_KINDS).meta({ id: 'LedgerKind' });
export type LedgerKind = z.infer<typeof LedgerKind>;

export const CreditBalance = z.object({ balance: z.number().int().nonnegative() }).meta({ id: 'CreditBalance' });
export type CreditBalance = z.infer<typeof CreditBalance>;

export const LedgerEntry = z
  .object({
    id: z.string().meta({ description: 'Increasing; also the pagination cursor.' }),
    kind: LedgerKind,
    /** Signed: negative for spends and for downward adjustments. */
    amount: z.number().int(),
    balanceAfter: z.number().int().nonnegative(),
    reason: z.string(),
    orderId: z.uuid().nullable(),
    taskId: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'LedgerEntry' });
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export const LedgerQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  /** Entries older than this id (the previous page's `nextCursor`). */
  before: z.string().regex(/^\d+$/).optional(),
});

export const LedgerPage = z
  .object({ entries: z.array(LedgerEntry), nextCursor: z.string().nullable() })
  .meta({ id: 'LedgerPage' });
export type LedgerPage = z.infer<typeof LedgerPage>;
