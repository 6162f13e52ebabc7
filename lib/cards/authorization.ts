import { newId } from '../core/ids';
import { addSeconds, now } from '../core/clock';
import { transaction, type Tx } from '../core/db';
import { fieldError } from '../core/errors';
import { enqueue } from '../jobs/queue';
import * as accounts from '../accounts/service';
import * as customers from '../customers/repository';
import * as repo from './repository';
import type { CardRow, CardTransactionRow } from './repository';
import { available, move } from './postings';
import { announce, recordCardEvent, type EventKind } from './record';
import { cardProcessor, type CardScenario } from './processor';
import { confirmPull } from './reconcile';

// Authorization decisioning: the processor asks whether a card may authorize an amount at a
// merchant; the answer depends on the card's state, its per-transaction limit and its funding
// sources, tried in priority order. An approved purchase reserves the amount on the chosen
// source (the pull: AVAILABLE → HELD); an approved credit waits in the source's PENDING bucket.
export const PULL_CONFIRM_JOB = 'card.pull_confirm';

export type AuthorizationKind = Extract<
  EventKind,
  | 'AUTHORIZATION'
  | 'FINANCIAL_AUTHORIZATION'
  | 'CREDIT_AUTHORIZATION'
  | 'FINANCIAL_CREDIT_AUTHORIZATION'
  | 'CREDIT_AUTHORIZATION_ADVICE'
  | 'BALANCE_INQUIRY'
>;

export interface AuthorizationEvent {
  kind: AuthorizationKind;
  token: string;
  amount: bigint;
  currency: string;
  merchant: { descriptor: string; mcc?: string; country?: string };
}

const CREDITS: AuthorizationKind[] = [
  'CREDIT_AUTHORIZATION',
  'FINANCIAL_CREDIT_AUTHORIZATION',
  'CREDIT_AUTHORIZATION_ADVICE',
];
export const isCredit = (kind: AuthorizationKind) => CREDITS.includes(kind);

type Decision = { accountId: string } | { decline: string };

/** The decision on one authorization (nothing written). */
async function decide(tx: Tx, card: CardRow, ev: AuthorizationEvent, scenario: CardScenario): Promise<Decision> {
  // An advice tells of something the network already approved: the card's state does not refuse it.
  if (ev.kind !== 'CREDIT_AUTHORIZATION_ADVICE' && card.state !== 'ACTIVE')
    return {
      decline: card.state === 'FROZEN' ? 'CARD_PAUSED' : card.state === 'CLOSED' ? 'CARD_CLOSED' : 'CARD_NOT_ACTIVE',
    };
  if (scenario === 'CARD_PAUSED') return { decline: 'CARD_PAUSED' };
  if (scenario === 'INSUFFICIENT_FUNDS') return { decline: 'INSUFFICIENT_FUNDS' };
  const credit = isCredit(ev.kind);
  if (!credit && card.maxSpendPerTransaction !== null && ev.amount > card.maxSpendPerTransaction)
    return { decline: 'EXCEEDS_MAX_SPEND_PER_TRANSACTION' };
  const ids = card.fundingSources as string[];
  const rows = new Map((await accounts.customerAccounts(card.platformId, card.cardholderId, tx)).map((a) => [a.id, a]));
  const usable = ids.filter((id) => rows.get(id)?.status === 'ACTIVE');
  if (credit || ev.kind === 'BALANCE_INQUIRY')
    return usable.length ? { accountId: usable[0] } : { decline: 'NO_FUNDING_SOURCE' };
  const balances = await available(usable, tx);
  const chosen = usable.find((id) => (balances.get(id) ?? 0n) >= ev.amount);
  return chosen ? { accountId: chosen } : { decline: 'INSUFFICIENT_FUNDS' };
}

/**
 * Handles one authorization-family event on a locked card: decides, records the decision and, when
 * approved, opens the card transaction and moves its money. Returns the new transaction, if any.
 * `scenario`: the outcome to simulate, when not the sandbox processor's for the merchant.
 */
export async function authorize(
  tx: Tx,
  card: CardRow,
  ev: AuthorizationEvent,
  opts: { scenario?: CardScenario } = {},
): Promise<CardTransactionRow | null> {
  if (ev.currency !== card.currency)
    throw fieldError('currency.code', `The card transacts in ${card.currency}, not ${ev.currency}`);
  // A real processor's request (lib/cards/asa.ts) is decided on the card's own records alone
  // (APPROVE: no simulated outcome); a sandbox simulation asks the sandbox processor's magic values.
  const scenario = opts.scenario ?? cardProcessor.get().scenario(ev.merchant.descriptor);
  const decision = await decide(tx, card, ev, scenario);
  const base = { platformId: card.platformId, cardId: card.id, token: ev.token, kind: ev.kind, amount: ev.amount };
  if ('decline' in decision) {
    await recordCardEvent(tx, { ...base, declineReason: decision.decline, details: { merchant: ev.merchant } });
    return null;
  }
  if (ev.kind === 'BALANCE_INQUIRY') {
    const balance = (await available([decision.accountId], tx)).get(decision.accountId) ?? 0n;
    await recordCardEvent(tx, {
      ...base,
      details: { merchant: ev.merchant, accountId: decision.accountId, availableBalance: balance.toString() },
    });
    return null;
  }
  const row = await open(tx, card, ev, decision.accountId, scenario);
  await recordCardEvent(tx, { ...base, cardTransactionId: row.id, details: { merchant: ev.merchant } });
  return afterOpen(tx, row, ev.kind, scenario);
}

/** Writes the new card transaction and its first posting. */
async function open(tx: Tx, card: CardRow, ev: AuthorizationEvent, accountId: string, scenario: CardScenario) {
  const holder = await customers.findById(card.platformId, card.cardholderId, tx);
  const at = now();
  const credit = isCredit(ev.kind);
  const financialCredit = ev.kind === 'FINANCIAL_CREDIT_AUTHORIZATION';
  const row = await repo.insertTransaction(
    {
      id: newId('CardTransaction'),
      platformId: card.platformId,
      cardId: card.id,
      customerId: card.cardholderId,
      platformCustomerId: holder?.platformCustomerId ?? card.cardholderId,
      issuerTransactionToken: ev.token,
      status: financialCredit ? 'SETTLED' : 'AUTHORIZED',
      direction: credit ? 'CREDIT' : 'DEBIT',
      merchant: ev.merchant,
      currency: card.currency,
      accountId,
      authorizedAmount: ev.amount,
      settledAmount: financialCredit ? ev.amount : 0n,
      refundedAmount: 0n,
      openAmount: financialCredit ? 0n : ev.amount,
      pullCount: credit ? 0 : 1,
      pullTotal: credit ? 0n : ev.amount,
      pullPending: credit ? 0 : 1,
      settlementCount: financialCredit ? 1 : 0,
      refundCount: 0,
      scenario,
      singleMessage: ev.kind === 'FINANCIAL_AUTHORIZATION',
      authorizedAt: at,
      lastEventAt: at,
      createdAt: at,
      updatedAt: at,
    },
    tx,
  );
  const f = { platformId: row.platformId, id: row.id, accountId, currency: row.currency };
  if (!credit) await move(tx, f, 'CARD_HOLD', 'available', 'held', ev.amount);
  else if (financialCredit) await move(tx, f, 'CARD_CREDIT', 'network', 'available', ev.amount);
  else await move(tx, f, 'CARD_CREDIT_HOLD', 'network', 'pending', ev.amount);
  return row;
}

/** Announces the new transaction, then confirms its pull now or (sandbox 005) on a timer. */
async function afterOpen(tx: Tx, row: CardTransactionRow, kind: AuthorizationKind, scenario: CardScenario) {
  await announce(tx, row);
  if (isCredit(kind)) return row;
  if (scenario === 'DELAYED_PULL') {
    await enqueue(tx, {
      platformId: row.platformId,
      kind: PULL_CONFIRM_JOB,
      payload: { cardTransactionId: row.id },
      runAt: addSeconds(row.createdAt, cardProcessor.get().delayedPullSeconds),
    });
    return row;
  }
  return confirmPull(tx, row, scenario === 'PULL_FAILS');
}

/** Job: a delayed pull (sandbox 005) is confirmed by the issuer. */
export async function pullConfirmJob(payload: unknown, job: { platformId: string }): Promise<void> {
  const { cardTransactionId } = payload as { cardTransactionId: string };
  await transaction(async (tx) => {
    const t = await repo.lockTransaction(job.platformId, cardTransactionId, tx);
    if (t) await confirmPull(tx, t, t.scenario === 'PULL_FAILS');
  });
}
