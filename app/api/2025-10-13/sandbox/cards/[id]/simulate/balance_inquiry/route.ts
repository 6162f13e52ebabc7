import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { balanceInquiryRequest } from '@/lib/cards/schema';
import * as commands from '@/lib/cards/simulation-commands';

// POST /sandbox/cards/{id}/simulate/balance_inquiry – a balance inquiry (a 0-amount authorization) (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/balance_inquiry',
    summary: 'Simulate a card balance inquiry',
    body: balanceInquiryRequest,
  },
  commands.balanceInquiry,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
