import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { rejectRequest, transaction, transactionIdParams } from '@/lib/payments/transactions/schema';
import { rejectTransaction } from '@/lib/agents/approvals';

// POST /transactions/{transactionId}/reject – refuse a payment waiting for the platform's decision
const reject = endpoint(
  {
    method: 'POST',
    path: '/transactions/{transactionId}/reject',
    summary: 'Reject a pending payment',
    tags: ['Transactions'],
    permission: 'TRANSACT',
    params: transactionIdParams,
    body: rejectRequest,
    idempotent: true,
    answer: ok,
    responses: { 200: { description: 'Payment rejected', schema: transaction }, ...errors(400, 401, 403, 404, 409) },
  },
  // An agent's pending transaction is decided through its action (lib/agents/approvals.ts).
  async ({ actor, params, body }) => rejectTransaction(actor, params.transactionId, body.reason),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(reject);
