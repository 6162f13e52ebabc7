import { defineCommand } from '../core/command';
import { estimateWithdrawalFeeRequest } from './schema';
import { estimateWithdrawalFee } from './service';

// POST /crypto/estimate-withdrawal-fee as a query: read-only (nothing is reserved or moved), so
// VIEW suffices and it takes no idempotency key.
export const estimateFee = defineCommand({
  name: 'crypto.estimate-withdrawal-fee',
  input: estimateWithdrawalFeeRequest,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => estimateWithdrawalFee(actor.platformId, b),
});
