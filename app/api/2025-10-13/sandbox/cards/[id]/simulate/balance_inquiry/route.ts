import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { balanceInquiryRequest } from '@/lib/cards/schema';
import { simulateAuthorization } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/balance_inquiry – a balance inquiry (a 0-amount authorization) (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/balance_inquiry',
    summary: 'Simulate a card balance inquiry',
    body: balanceInquiryRequest,
  },
  (platformId, cardId, body) => simulateAuthorization(platformId, cardId, 'BALANCE_INQUIRY', body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
