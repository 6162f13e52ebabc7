import { z } from 'zod';
import { defineCommand } from '../core/command';
import { approveRequest, rejectRequest } from '../payments/transactions/schema';
import { approveTransaction, rejectTransaction } from './approvals';

// Deciding a payment that waits for the platform (POST /transactions/{id}/approve and /reject) as
// commands: an incoming payment is decided directly, an agent's through its action, so either
// decision lives here above both. Each moves money, so a key makes it exactly-once.
export const approve = defineCommand({
  name: 'transactions.approve',
  input: z.object({ transactionId: z.string(), body: approveRequest }),
  actors: { platform: 'TRANSACT' },
  idempotency: 'optional',
  run: (actor, b) => approveTransaction(actor, b.transactionId, b.body.receiverCustomerInfo),
});

export const reject = defineCommand({
  name: 'transactions.reject',
  input: z.object({ transactionId: z.string(), body: rejectRequest }),
  actors: { platform: 'TRANSACT' },
  idempotency: 'optional',
  run: (actor, b) => rejectTransaction(actor, b.transactionId, b.body.reason),
});
