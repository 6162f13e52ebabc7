import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as payments from '@/lib/payments/commands';
import { transaction } from '@/lib/payments/transactions/schema';
import { transferIn } from '@/lib/payments/transfers/schema';

// POST /transfer-in – same-currency pull (ACH debit) from an external account into an internal account
const create = commandEndpoint(
  {
    method: 'POST',
    path: '/transfer-in',
    summary: 'Create a transfer-in request',
    tags: ['Same-Currency Transfers'],
    body: transferIn,
    answer: created,
    responses: { 201: { description: 'Transfer created', schema: transaction }, ...errors(400, 401, 403, 404) },
  },
  payments.transferIn,
  ({ body }) => body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
