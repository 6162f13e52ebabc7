import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as payments from '@/lib/payments/commands';
import { errors } from '@/lib/http/docs';
import { confirmRequest, transaction, transactionIdParams } from '@/lib/payments/transactions/schema';

// POST /transactions/{transactionId}/confirm – record that the receipt reached the customer
const confirm = commandEndpoint(
  {
    method: 'POST',
    path: '/transactions/{transactionId}/confirm',
    answer: ok,
    summary: 'Confirm receipt delivery',
    tags: ['Transactions'],
    params: transactionIdParams,
    body: confirmRequest,
    responses: { 200: { description: 'Confirmation recorded', schema: transaction }, ...errors(400, 401, 403, 404) },
  },
  payments.confirmTransaction,
  ({ params, body }) => ({ transactionId: params.transactionId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(confirm);
