import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { approveRequest, transaction, transactionIdParams } from '@/lib/payments/transactions/schema';
import * as transactions from '@/lib/payments/transactions/service';

// POST /transactions/{transactionId}/approve – approve a payment waiting for the platform's decision
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
  async ({ actor, params, body }) =>
    transactions.approve(actor.platformId, params.transactionId, body.receiverCustomerInfo),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(approve);
