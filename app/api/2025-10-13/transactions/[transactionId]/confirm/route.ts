import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { confirmRequest, transaction, transactionIdParams } from '@/lib/payments/transactions/schema';
import * as transactions from '@/lib/payments/transactions/service';

// POST /transactions/{transactionId}/confirm – record that the receipt reached the customer
const confirm = endpoint(
  {
    method: 'POST',
    path: '/transactions/{transactionId}/confirm',
    summary: 'Confirm receipt delivery',
    tags: ['Transactions'],
    permission: 'TRANSACT',
    params: transactionIdParams,
    body: confirmRequest,
    responses: { 200: { description: 'Confirmation recorded', schema: transaction }, ...errors(400, 401, 403, 404) },
  },
  async ({ actor, params, body }) =>
    ok(await transactions.confirmReceipt(actor.platformId, params.transactionId, body.receiptDeliveryConfirmedAt)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(confirm);
