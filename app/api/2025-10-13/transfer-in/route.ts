import { created, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { transaction } from '@/lib/payments/transactions/schema';
import { transferIn } from '@/lib/payments/transfers/schema';
import * as transfers from '@/lib/payments/transfers/service';

// POST /transfer-in – same-currency pull (ACH debit) from an external account into an internal account
const create = endpoint(
  {
    method: 'POST',
    path: '/transfer-in',
    summary: 'Create a transfer-in request',
    tags: ['Same-Currency Transfers'],
    permission: 'TRANSACT',
    body: transferIn,
    idempotent: true,
    answer: created,
    responses: { 201: { description: 'Transfer created', schema: transaction }, ...errors(400, 401, 403, 404) },
  },
  async ({ actor, body }) => transfers.transferIn(actor.platformId, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
