import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { cancelRequest, transaction, transactionIdParams } from '@/lib/payments/transactions/schema';
import * as transactions from '@/lib/payments/transactions/service';

// POST /transactions/{transactionId}/cancel – recall a bank transfer (ACH, wire) that has not settled
const cancel = endpoint(
  {
    method: 'POST',
    path: '/transactions/{transactionId}/cancel',
    summary: 'Cancel a pending bank transfer',
    tags: ['Transactions'],
    permission: 'TRANSACT',
    params: transactionIdParams,
    body: cancelRequest,
    idempotent: true,
    answer: ok,
    responses: { 200: { description: 'Cancellation done', schema: transaction }, ...errors(400, 401, 403, 404, 409) },
  },
  async ({ actor, params, body }) => transactions.cancel(actor.platformId, params.transactionId, body.reason),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(cancel);
