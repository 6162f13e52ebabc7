import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as payments from '@/lib/payments/commands';
import { transaction } from '@/lib/payments/transactions/schema';
import { transferOut } from '@/lib/payments/transfers/schema';

// POST /transfer-out – same-currency payout from an internal account to the owner's external account
const create = commandEndpoint(
  {
    method: 'POST',
    path: '/transfer-out',
    summary: 'Create a transfer-out request',
    tags: ['Same-Currency Transfers'],
    body: transferOut,
    answer: created,
    responses: { 201: { description: 'Transfer created', schema: transaction }, ...errors(400, 401, 403, 404) },
  },
  payments.transferOut,
  ({ body }) => body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
