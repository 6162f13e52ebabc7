import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { estimateWithdrawalFeeRequest, estimateWithdrawalFeeResponse } from '@/lib/crypto/schema';
import { estimateWithdrawalFee } from '@/lib/crypto/service';

// POST /crypto/estimate-withdrawal-fee – network and application fees of a crypto withdrawal
const estimate = endpoint(
  {
    method: 'POST',
    path: '/crypto/estimate-withdrawal-fee',
    summary: 'Estimate crypto withdrawal fee',
    description: 'Read-only: nothing is reserved or moved, so the VIEW permission suffices.',
    tags: ['Cross-Currency Transfers'],
    permission: 'VIEW',
    body: estimateWithdrawalFeeRequest,
    responses: {
      200: { description: 'Fee estimation returned successfully', schema: estimateWithdrawalFeeResponse },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, body }) => ok(await estimateWithdrawalFee(actor.platformId, body)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(estimate);
