import type { Tx } from '../core/db';
import { effect } from '../core/idempotency';
import { notFound } from '../core/errors';
import { InsufficientFunds } from '../ledger/service';
import * as repo from './repository';
import type { CardRow, CardTransactionRow } from './repository';
import { cardProcessor } from './processor';
import { authorize, type AuthorizationKind } from './authorization';
import { advise, clear, refund, reverseReturn } from './reconcile';

// The sandbox's card simulations (POST /sandbox/cards/{id}/simulate/...): the sandbox processor
// issues the event's token and the event goes through the same handlers a real processor's
// events would (authorization.ts, reconcile.ts). Each runs in one transaction with the card
// locked, so events on one card apply one at a time and never overlap a state change.
export interface SimulationResult {
  issuerTransactionToken: string;
}

/**
 * Runs a simulation as one effect. A concurrent payment can take the funds between the decision's
 * balance read and its posting; the ledger then refuses the posting and the whole event is
 * decided again (this time declined, or paid from the next source).
 */
async function run(fn: (tx: Tx) => Promise<SimulationResult>): Promise<SimulationResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await effect(fn);
    } catch (err) {
      if (!(err instanceof InsufficientFunds) || attempt >= 2) throw err;
    }
  }
}

async function lockedCard(platformId: string, cardId: string, tx: Tx): Promise<CardRow> {
  const card = await repo.lockCard(platformId, cardId, tx);
  if (!card) throw notFound('REFERENCE_NOT_FOUND', `Card ${cardId}`);
  return card;
}

async function lockedTransaction(card: CardRow, id: string, tx: Tx): Promise<CardTransactionRow> {
  const t = await repo.lockTransaction(card.platformId, id, tx);
  if (!t || t.cardId !== card.id) throw notFound('TRANSACTION_NOT_FOUND', `Card transaction ${id} of card ${card.id}`);
  return t;
}

export function simulateAuthorization(
  platformId: string,
  cardId: string,
  kind: AuthorizationKind,
  req: {
    amount?: bigint;
    currency?: { code: string };
    merchant: { descriptor: string; mcc?: string; country?: string };
  },
) {
  return run(async (tx) => {
    const card = await lockedCard(platformId, cardId, tx);
    const token = cardProcessor.get().newToken();
    await authorize(tx, card, {
      kind,
      token,
      amount: req.amount ?? 0n,
      currency: req.currency?.code ?? card.currency,
      merchant: req.merchant,
    });
    return { issuerTransactionToken: token };
  });
}

type OnTransaction = (tx: Tx, card: CardRow, t: CardTransactionRow) => Promise<unknown>;

function onTransaction(platformId: string, cardId: string, cardTransactionId: string, fn: OnTransaction) {
  return run(async (tx) => {
    const card = await lockedCard(platformId, cardId, tx);
    const t = await lockedTransaction(card, cardTransactionId, tx);
    await fn(tx, card, t);
    return { issuerTransactionToken: t.issuerTransactionToken };
  });
}

export const simulateClearing = (
  platformId: string,
  cardId: string,
  req: { cardTransactionId: string; amount: bigint },
) => onTransaction(platformId, cardId, req.cardTransactionId, (tx, _card, t) => clear(tx, t, req.amount));

export const simulateReturn = (
  platformId: string,
  cardId: string,
  req: { cardTransactionId: string; amount: bigint },
) => onTransaction(platformId, cardId, req.cardTransactionId, (tx, _card, t) => refund(tx, t, req.amount));

export const simulateReturnReversal = (platformId: string, cardId: string, req: { cardTransactionId: string }) =>
  onTransaction(platformId, cardId, req.cardTransactionId, (tx, _card, t) => reverseReturn(tx, t));

export const simulateAdvice = (
  platformId: string,
  cardId: string,
  req: { cardTransactionId: string; amount: bigint },
) => onTransaction(platformId, cardId, req.cardTransactionId, (tx, card, t) => advise(tx, card, t, req.amount));
