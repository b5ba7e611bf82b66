/** Rows to the shared API shapes: dates become ISO strings, secrets and hashes never leave. */
import type { AdminOrder, AdminUser, ApiKey, LedgerEntry, Order, SessionResponse } from '@atelier/api/schemas';
import type { ApiKeyRow, LedgerRow, OrderRow, UserRow } from '../db/schema.ts';

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

export function sessionBody(user: UserRow, credits: number, expiresAt?: Date): SessionResponse {
  return {
    user: { id: user.id, email: user.email, name: user.name },
    role: user.role,
    credits,
    ...(expiresAt ? { expiresAt: iso(expiresAt) } : {}),
  };
}

export function apiKeyBody(k: ApiKeyRow): ApiKey {
  return { id: k.id, name: k.name, maskedKey: k.maskedKey, status: k.status, createdAt: iso(k.createdAt), lastUsedAt: isoOrNull(k.lastUsedAt) };
}

export function ledgerEntryBody(e: LedgerRow): LedgerEntry {
  return {
    id: String(e.id),
    kind: e.kind,
    amount: e.amount,
    balanceAfter: e.balanceAfter,
    reason: e.reason,
    orderId: e.orderId,
    taskId: e.taskId,
    createdAt: iso(e.createdAt),
  };
}

export function orderBody(o: OrderRow): Order {
  return {
    id: o.id,
    packId: o.packId,
    credits: o.credits,
    price: o.price,
    currency: o.currency,
    provider: o.provider,
    status: o.status,
    checkoutUrl: o.status === 'pending' ? o.checkoutUrl : null,
    createdAt: iso(o.createdAt),
    paidAt: isoOrNull(o.paidAt),
  };
}

export function adminOrderBody(o: OrderRow & { userEmail: string }): AdminOrder {
  return { ...orderBody(o), userId: o.userId, userEmail: o.userEmail, approvedBy: o.approvedBy };
}

export function adminUserBody(u: UserRow & { credits: number }): AdminUser {
  return { id: u.id, email: u.email, name: u.name, role: u.role, disabled: u.disabledAt !== null, credits: u.credits, createdAt: iso(u.createdAt) };
}
