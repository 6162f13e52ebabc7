import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as decisions from '@/lib/agents/approval-commands';
import { errors } from '@/lib/http/docs';
import { rejectRequest, transaction, transactionIdParams } from '@/lib/payments/transactions/schema';

// POST /transactions/{transactionId}/reject – refuse a payment waiting for the platform's decision
const reject = commandEndpoint(
  {
    method: 'POST',
    path: '/transactions/{transactionId}/reject',
    answer: ok,
    summary: 'Reject a pending payment',
    tags: ['Transactions'],
    params: transactionIdParams,
    body: rejectRequest,
    responses: { 200: { description: 'Payment rejected', schema: transaction }, ...errors(400, 401, 403, 404, 409) },
  },
  decisions.reject,
  ({ params, body }) => ({ transactionId: params.transactionId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(reject);
