import { z } from 'zod';
import { Timestamp } from './common.ts';
import { DisplayName, Email, Password, Role } from './auth.ts';
import { Order, OrderStatus } from './orders.ts';
import { LedgerEntry } from './credits.ts';

export const AdminUser = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    role: Role,
    disabled: z.boolean(),
    credits: z.number().int().nonnegative(),
    createdAt: Timestamp,
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUserQuery = z.object({
  /** Part of an email or name, case-insensitive. */
  q: z.string().trim().max(254).optional(),
  /** Exactly this email (the operator command line looks accounts up this way). */
  email: Email.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const AdminUserList = z
  .object({ users: z.array(AdminUser), total: z.number().int() })
  .meta({ id: 'AdminUserList' });
export type AdminUserList = z.infer<typeof AdminUserList>;

/** Without a password the account can only sign in after a password reset. */
export const AdminCreateUserBody = z
  .object({ email: Email, password: Password.optional(), name: DisplayName.optional(), role: Role.default('user') })
  .meta({ id: 'AdminCreateUserBody' });
export type AdminCreateUserBody = z.infer<typeof AdminCreateUserBody>;

export const AdminUpdateUserBody = z
  .object({ role: Role.optional(), disabled: z.boolean().optional() })
  .refine((b) => b.role !== undefined || b.disabled !== undefined, { message: 'Nothing to change' })
  .meta({ id: 'AdminUpdateUserBody' });
export type AdminUpdateUserBody = z.infer<typeof AdminUpdateUserBody>;

export const CreditAdjustmentBody = z
  .object({
    amount: z
      .number()
      .int()
      .refine((n) => n !== 0, 'Must not be zero')
      .refine((n) => Math.abs(n) <= 1_000_000_000, 'Too large'),
    reason: z.string().trim().min(1).max(500),
    /** Makes a retried adjustment apply once. */
    idempotencyKey: z.string().min(1).max(200).optional(),
  })
  .meta({ id: 'CreditAdjustmentBody' });
export type CreditAdjustmentBody = z.infer<typeof CreditAdjustmentBody>;

export const CreditAdjustment = z
  .object({ balance: z.number().int().nonnegative(), entry: LedgerEntry })
  .meta({ id: 'CreditAdjustment' });
export type CreditAdjustment = z.infer<typeof CreditAdjustment>;

export const AdminOrder = Order.extend({ userId: z.uuid(), userEmail: z.string(), approvedBy: z.uuid().nullable() }).meta({
  id: 'AdminOrder',
});
export type AdminOrder = z.infer<typeof AdminOrder>;

export const AdminOrderQuery = z.object({
  status: OrderStatus.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const AdminOrderList = z
  .object({ orders: z.array(AdminOrder), total: z.number().int() })
  .meta({ id: 'AdminOrderList' });
export type AdminOrderList = z.infer<typeof AdminOrderList>;
