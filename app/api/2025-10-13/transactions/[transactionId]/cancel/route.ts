import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as payments from '@/lib/payments/commands';
import { errors } from '@/lib/http/docs';
import { cancelRequest, transaction, transactionIdParams } from '@/lib/payments/transactions/schema';

// POST /transactions/{transactionId}/cancel – recall a bank transfer (ACH, wire) that has not settled
const cancel = commandEndpoint(
  {
    method: 'POST',
    path: '/transactions/{transactionId}/cancel',
    answer: ok,
    summary: 'Cancel a pending bank transfer',
    tags: ['Transactions'],
    params: transactionIdParams,
    body: cancelRequest,
    responses: { 200: { description: 'Cancellation done', schema: transaction }, ...errors(400, 401, 403, 404, 409) },
  },
  payments.cancelTransaction,
  ({ params, body }) => ({ transactionId: params.transactionId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(cancel);
