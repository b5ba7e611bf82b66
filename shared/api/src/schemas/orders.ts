import { z } from 'zod';
import { Timestamp } from './common.ts';
import { Currency, PaymentProvider } from './pricing.ts';

export const OrderStatus = z.enum(['pending', 'paid', 'cancelled']).meta({ id: 'OrderStatus' });
export type OrderStatus = z.infer<typeof OrderStatus>;

export const Order = z
  .object({
    id: z.uuid(),
    packId: z.string(),
    credits: z.number().int().positive(),
    price: z.number().int().nonnegative(),
    currency: Currency,
    provider: PaymentProvider,
    status: OrderStatus,
    /** Where to pay (Stripe Checkout) while the order is pending; null for manual orders. */
    checkoutUrl: z.url().nullable(),
    createdAt: Timestamp,
    paidAt: Timestamp.nullable(),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof Order>;

export const CreateOrderBody = z.object({ packId: z.string().min(1).max(40) }).meta({ id: 'CreateOrderBody' });
export type CreateOrderBody = z.infer<typeof CreateOrderBody>;

export const OrderList = z.object({ orders: z.array(Order) }).meta({ id: 'OrderList' });
export type OrderList = z.infer<typeof OrderList>;
