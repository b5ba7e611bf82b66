import { createRoute } from '@hono/zod-openapi';
import { CreditBalance, LedgerPage, LedgerQuery } from '@atelier/api/schemas';
import { balanceOf, ledgerPage } from '../domain/creditsLedger.ts';
import { createRouter, errorResponses, jsonContent, SESSION_SECURITY } from '../http/openapi.ts';
import { ledgerEntryBody } from '../http/responses.ts';
import { requireUser, signedInUser } from '../http/sessionAuth.ts';
import type { Services } from '../services.ts';

const common = { tags: ['credits'], security: SESSION_SECURITY, middleware: requireUser };

const balance = createRoute({
  ...common,
  method: 'get',
  path: '/credits',
  summary: 'Your credit balance',
  responses: { 200: jsonContent(CreditBalance, 'The balance'), ...errorResponses(401) },
});

const ledger = createRoute({
  ...common,
  method: 'get',
  path: '/credits/ledger',
  summary: 'Your credit history, newest first',
  request: { query: LedgerQuery },
  responses: { 200: jsonContent(LedgerPage, 'One page of entries'), ...errorResponses(400, 401) },
});

export function creditRoutes({ db }: Services) {
  const app = createRouter();
  app.openapi(balance, async (c) => c.json({ balance: await balanceOf(db, signedInUser(c).id) }, 200));
  app.openapi(ledger, async (c) => {
    const { limit, before } = c.req.valid('query');
    const page = await ledgerPage(db, signedInUser(c).id, limit, before);
    return c.json({ entries: page.entries.map(ledgerEntryBody), nextCursor: page.nextCursor }, 200);
  });
  return app;
}
