import type { z } from 'zod';
import { defineCommand } from '../core/command';
import { requireSandbox } from '../core/sandbox-only';
import {
  adviceRequest,
  authorizationRequest,
  balanceInquiryRequest,
  cardIdParams,
  clearingRequest,
  returnRequest,
  transactionRefRequest,
} from './schema';
import * as sim from './simulate';

// The sandbox's card-network simulations as commands (POST /sandbox/cards/{id}/simulate/...): one
// per network message, each the card's id and the message's body; each creates a card transaction
// or moves one on, so an Idempotency-Key makes it exactly-once, as the API always did.
type Run<B extends z.ZodType> = (
  platformId: string,
  cardId: string,
  body: z.output<B>,
) => Promise<sim.SimulationResult>;

function simulation<B extends z.ZodType>(message: string, body: B, run: Run<B>) {
  return defineCommand({
    name: `sandbox.cards.simulate.${message}`,
    input: cardIdParams.extend({ body }),
    actors: { platform: 'TRANSACT' },
    idempotency: 'optional',
    run: (actor, b) => {
      requireSandbox();
      // zod cannot name the body's output through a generic schema; it is `body`'s, parsed above.
      const { id, body: message } = b as unknown as { id: string; body: z.output<B> };
      return run(actor.platformId, id, message);
    },
  });
}

export const authorization = simulation('authorization', authorizationRequest, (p, c, b) =>
  sim.simulateAuthorization(p, c, 'AUTHORIZATION', b),
);
export const balanceInquiry = simulation('balance_inquiry', balanceInquiryRequest, (p, c, b) =>
  sim.simulateAuthorization(p, c, 'BALANCE_INQUIRY', b),
);
export const creditAuthorization = simulation('credit_authorization', authorizationRequest, (p, c, b) =>
  sim.simulateAuthorization(p, c, 'CREDIT_AUTHORIZATION', b),
);
export const creditAuthorizationAdvice = simulation('credit_authorization_advice', authorizationRequest, (p, c, b) =>
  sim.simulateAuthorization(p, c, 'CREDIT_AUTHORIZATION_ADVICE', b),
);
export const financialAuthorization = simulation('financial_authorization', authorizationRequest, (p, c, b) =>
  sim.simulateAuthorization(p, c, 'FINANCIAL_AUTHORIZATION', b),
);
export const financialCreditAuthorization = simulation(
  'financial_credit_authorization',
  authorizationRequest,
  (p, c, b) => sim.simulateAuthorization(p, c, 'FINANCIAL_CREDIT_AUTHORIZATION', b),
);
export const authorizationAdvice = simulation('authorization_advice', adviceRequest, sim.simulateAdvice);
export const clearing = simulation('clearing', clearingRequest, sim.simulateClearing);
export const cardReturn = simulation('return', returnRequest, sim.simulateReturn);
export const returnReversal = simulation('return_reversal', transactionRefRequest, sim.simulateReturnReversal);
