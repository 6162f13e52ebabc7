import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as decisions from '@/lib/agents/approval-commands';
import { errors } from '@/lib/http/docs';
import { approveRequest, transaction, transactionIdParams } from '@/lib/payments/transactions/schema';

// POST /transactions/{transactionId}/approve – approve a payment waiting for the platform's decision (an incoming payment, or an agent's)
const approve = commandEndpoint(
  {
    method: 'POST',
    path: '/transactions/{transactionId}/approve',
    answer: ok,
    summary: 'Approve a pending payment',
    tags: ['Transactions'],
    params: transactionIdParams,
    body: approveRequest,
    responses: { 200: { description: 'Payment approved', schema: transaction }, ...errors(400, 401, 403, 404, 409) },
  },
  decisions.approve,
  ({ params, body }) => ({ transactionId: params.transactionId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(approve);
