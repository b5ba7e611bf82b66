import { z } from 'zod';

/** ISO 4217, lower case as payment providers use it. */
export const Currency = z.string().regex(/^[a-z]{3}$/).meta({ example: 'usd' });

export const CreditPack = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/),
    credits: z.number().int().positive(),
    /** Price in the currency's minor unit (cents). */
    price: z.number().int().nonnegative(),
    currency: Currency,
    /** Marks the pack the pricing page highlights. */
    featured: z.boolean().default(false),
  })
  .meta({ id: 'CreditPack' });
export type CreditPack = z.infer<typeof CreditPack>;

export const PaymentProvider = z.enum(['manual', 'stripe']).meta({ id: 'PaymentProvider' });
export type PaymentProvider = z.infer<typeof PaymentProvider>;

export const Pricing = z
  .object({ packs: z.array(CreditPack), provider: PaymentProvider })
  .meta({ id: 'Pricing' });
export type Pricing = z.infer<typeof Pricing>;
