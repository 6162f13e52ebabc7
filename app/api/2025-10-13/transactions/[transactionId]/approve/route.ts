import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { approveRequest, transaction, transactionIdParams } from '@/lib/payments/transactions/schema';
import { approveTransaction } from '@/lib/agents/approvals';

// POST /transactions/{transactionId}/approve – approve a payment waiting for the platform's decision (an incoming payment, or an agent's)
const approve = endpoint(
  {
    method: 'POST',
    path: '/transactions/{transactionId}/approve',
    summary: 'Approve a pending payment',
    tags: ['Transactions'],
    permission: 'TRANSACT',
    params: transactionIdParams,
    body: approveRequest,
    idempotent: true,
    answer: ok,
    responses: { 200: { description: 'Payment approved', schema: transaction }, ...errors(400, 401, 403, 404, 409) },
  },
  // An agent's pending transaction is decided through its action (lib/agents/approvals.ts).
  async ({ actor, params, body }) => approveTransaction(actor, params.transactionId, body.receiverCustomerInfo),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(approve);
