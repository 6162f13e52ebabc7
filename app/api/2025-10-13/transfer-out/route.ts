import { created, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { transaction } from '@/lib/payments/transactions/schema';
import { transferOut } from '@/lib/payments/transfers/schema';
import * as transfers from '@/lib/payments/transfers/service';

// POST /transfer-out – same-currency payout from an internal account to the owner's external account
const create = endpoint(
  {
    method: 'POST',
    path: '/transfer-out',
    summary: 'Create a transfer-out request',
    tags: ['Same-Currency Transfers'],
    permission: 'TRANSACT',
    body: transferOut,
    idempotent: true,
    answer: created,
    responses: { 201: { description: 'Transfer created', schema: transaction }, ...errors(400, 401, 403, 404) },
  },
  async ({ actor, body }) => transfers.transferOut(actor.platformId, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
