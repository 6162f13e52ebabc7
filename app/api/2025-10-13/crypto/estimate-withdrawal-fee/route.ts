import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as crypto from '@/lib/crypto/commands';
import { errors } from '@/lib/http/docs';
import { estimateWithdrawalFeeRequest, estimateWithdrawalFeeResponse } from '@/lib/crypto/schema';

// POST /crypto/estimate-withdrawal-fee – network and application fees of a crypto withdrawal
const estimate = commandEndpoint(
  {
    method: 'POST',
    path: '/crypto/estimate-withdrawal-fee',
    answer: ok,
    summary: 'Estimate crypto withdrawal fee',
    description: 'Read-only: nothing is reserved or moved, so the VIEW permission suffices.',
    tags: ['Cross-Currency Transfers'],
    body: estimateWithdrawalFeeRequest,
    responses: {
      200: { description: 'Fee estimation returned successfully', schema: estimateWithdrawalFeeResponse },
      ...errors(400, 401, 403, 404),
    },
  },
  crypto.estimateFee,
  ({ body }) => body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(estimate);
