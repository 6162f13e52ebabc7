import { randomUUID } from 'node:crypto';
import { DomainError } from '../core/errors';
import { port, type AdapterStatus } from '../core/ports';
import { newCvv, newPan } from './pan';

// The card processor / issuer: it provisions cards, and it is the party whose authorization,
// clearing and return events this service reconciles (lib/cards/events.ts handles them the same
// way whether they come from the sandbox simulation or a real processor's webhook). Plugged in
// by lib/wiring.ts: the sandbox simulation in sandbox mode; outside sandbox no processor is
// connected, and card operations answer 501 NOT_IMPLEMENTED as the reference specifies.

/** The outcome the sandbox processor gives an event, from the merchant descriptor's last three characters. */
export type CardScenario =
  | 'APPROVE'
  | 'INSUFFICIENT_FUNDS' // 002: the pull on the funding source fails: declined
  | 'CARD_PAUSED' // 003: declined as if the card were frozen
  | 'DELAYED_PULL' // 005: the pull stays PENDING about 30 s before it is confirmed
  | 'PULL_FAILS'; // 006: the pull's confirmation reports FAILED: the transaction goes to EXCEPTION

export interface IssuedCard {
  pan: string;
  cvv: string;
  expMonth: number;
  expYear: number;
  brand: 'VISA' | 'MASTERCARD';
  processorRef: string;
  issuerRef: string;
}

export interface CardProcessor {
  /** Asks the issuer for a new card (details now; provisioning completes later). */
  issue(req: { platformCardId: string; currency: string; at: Date }): IssuedCard;
  /** Whether provisioning of a card the issuer accepted succeeds. */
  provisioningOutcome(req: { platformCardId: string }): 'ACTIVE' | 'ISSUER_REJECTED';
  /** Seconds the issuer takes to provision a card. */
  provisioningSeconds: number;
  scenario(merchantDescriptor: string): CardScenario;
  /** Seconds a DELAYED_PULL stays pending. */
  delayedPullSeconds: number;
  /** The issuer's token for a new transaction or event. */
  newToken(): string;
  describe(): AdapterStatus;
}
export const cardProcessor = port<CardProcessor>('cards.processor');

/** Sandbox BIN (Visa test range). */
const SANDBOX_BIN = '400005';

export const sandboxCardProcessor: CardProcessor = {
  issue({ at }) {
    return {
      pan: newPan(SANDBOX_BIN),
      cvv: newCvv(),
      expMonth: at.getUTCMonth() + 1,
      expYear: at.getUTCFullYear() + 4,
      brand: 'VISA',
      processorRef: `card_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      issuerRef: `issuer_card_${randomUUID().replace(/-/g, '').slice(0, 12)}`,
    };
  },
  // platformCardId ending in 002: the issuer rejects provisioning (CLOSED, ISSUER_REJECTED).
  provisioningOutcome: ({ platformCardId }) => (platformCardId.endsWith('002') ? 'ISSUER_REJECTED' : 'ACTIVE'),
  provisioningSeconds: 0,
  scenario(descriptor) {
    switch (descriptor.trim().slice(-3)) {
      case '002':
        return 'INSUFFICIENT_FUNDS';
      case '003':
        return 'CARD_PAUSED';
      case '005':
        return 'DELAYED_PULL';
      case '006':
        return 'PULL_FAILS';
      default:
        return 'APPROVE';
    }
  },
  delayedPullSeconds: 30,
  newToken: () => `sandbox_txn_${randomUUID()}`,
  describe: () => ({
    party: 'card issuing',
    adapter: 'sandbox',
    connected: false,
    detail: 'simulated issuer: outcomes from card ids and merchant descriptors (README)',
  }),
};

const notConnected = (): never => {
  throw new DomainError('NOT_IMPLEMENTED', 'No card issuer is configured in this environment');
};

/** Outside sandbox: no card issuer is connected yet. */
export const unconnectedCardProcessor: CardProcessor = {
  issue: notConnected,
  provisioningOutcome: notConnected,
  provisioningSeconds: 0,
  scenario: notConnected,
  delayedPullSeconds: 0,
  newToken: notConnected,
  describe: () => ({
    party: 'card issuing',
    adapter: 'none',
    connected: false,
    detail: `no card issuer connected: card operations answer 501 NOT_IMPLEMENTED; no issuer adapter ships yet (${'docs/operations.md#providers-what-is-real-and-what-to-connect'})`,
  }),
};
