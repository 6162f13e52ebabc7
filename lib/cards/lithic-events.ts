import { clockOf } from '../core/clock';
import { runAs } from '../core/context';
import { db, transaction, type Tx } from '../core/db';
import { DomainError } from '../core/errors';
import { log } from '../core/log';
import { InsufficientFunds } from '../ledger/service';
import * as platforms from '../platform/repository';
import * as repo from './repository';
import type { CardRow, CardTransactionRow } from './repository';
import { advise, clear, refund, reverseReturn, type ProcessorDetails } from './reconcile';

// What happens to a card transaction after Lithic's ASA approved it (lib/cards/asa.ts): Lithic's
// event subscription posts the Transaction object (card_transaction.updated) every time an event
// is appended to it — clearings, expiries, reversals, returns — each time with all its events so
// far. Each APPROVED event Corridor has not applied yet goes through the same reconcile handlers
// the sandbox simulations drive (lib/cards/reconcile.ts), one database transaction per event with
// the card and then the card transaction locked, as simulate.ts runs them.
//
// Exactly once per Lithic event token: the CardEvent an event leaves carries the token in its
// details (LITHIC_EVENT), and it is looked for inside the event's own transaction, after the
// locks — so a redelivery, a cumulative update with one new event, or two deliveries at once
// apply each event once. docs/cards.md has the mapping.
export const LITHIC_EVENT = 'lithicEventToken';

export interface LithicEvent {
  token: string;
  type: string;
  result: string;
  /** A magnitude in the card's minor units: the type says which way the money goes. */
  amount: bigint;
}

export interface LithicTransactionUpdate {
  token: string;
  cardToken: string;
  events: LithicEvent[];
}

type Parsed = LithicTransactionUpdate | { ignore: string } | { error: string };

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/**
 * An event's amount: `amount` (Lithic keeps it beside the newer `amounts`), else
 * `amounts.cardholder.amount`. Lithic signs it by direction (a reversal's is negative); the
 * event's type already says which way the money goes, so Corridor takes the magnitude.
 */
function amountOf(e: Record<string, unknown>): bigint | null {
  const raw = e.amount ?? obj(obj(e.amounts)?.cardholder)?.amount;
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw)) return null;
  return BigInt(Math.abs(raw));
}

function eventOf(e: unknown, i: number): LithicEvent | { error: string } {
  const o = obj(e);
  const token = str(o?.token);
  const type = str(o?.type);
  if (!o || !token || !type) return { error: `events[${i}] needs a token and a type` };
  const amount = amountOf(o);
  if (amount === null && type in HANDLERS) return { error: `events[${i}].amount must be a whole number of cents` };
  return { token, type, result: str(o.result) ?? '', amount: amount ?? 0n };
}

/** The Transaction object of a card_transaction.updated webhook (bare, or as an event's `payload`). */
export function transactionUpdateOf(body: string): Parsed {
  let b: Record<string, unknown> | null;
  try {
    b = obj(JSON.parse(body));
  } catch {
    return { error: 'The body is not JSON' };
  }
  if (!b) return { error: 'The body is not a JSON object' };
  const type = str(b.event_type);
  // A subscription can carry other event types: acknowledged, so Lithic does not retry them.
  if (type && type !== 'card_transaction.updated') return { ignore: `event_type ${type} is not a card transaction` };
  const t = obj(b.payload) ?? b;
  const token = str(t.token);
  const cardToken = str(t.card_token) ?? str(obj(t.card)?.token);
  if (!token) return { error: 'token is required' };
  if (!cardToken) return { error: 'card_token is required' };
  if (!Array.isArray(t.events)) return { error: 'events must be an array' };
  const events: LithicEvent[] = [];
  for (const [i, e] of t.events.entries()) {
    const event = eventOf(e, i);
    if ('error' in event) return event;
    events.push(event);
  }
  return { token, cardToken, events };
}

type Handler = (
  tx: Tx,
  card: CardRow,
  t: CardTransactionRow,
  e: LithicEvent,
  d: ProcessorDetails,
) => Promise<string | null>;

const done = async (p: Promise<unknown>) => {
  await p;
  return null;
};

/**
 * Lithic's event types and what each does to the card transaction (a decline reason, or null).
 * AUTHORIZATION (and the other requests) were decided on ASA already; BALANCE_INQUIRY moves
 * nothing; CORRECTION_* and the rest are not modelled yet and are acknowledged unapplied.
 */
const HANDLERS: Record<string, Handler> = {
  CLEARING: (tx, _card, t, e, d) => done(clear(tx, t, e.amount, 'CLEARING', d)),
  AUTHORIZATION_EXPIRY: (tx, _card, t, _e, d) => done(clear(tx, t, 0n, 'AUTHORIZATION_EXPIRY', d)),
  // A reversal of all that is open releases it (as an expiry does); of part, re-sizes the hold.
  AUTHORIZATION_REVERSAL: (tx, card, t, e, d) =>
    e.amount === 0n || e.amount >= t.openAmount
      ? done(clear(tx, t, 0n, 'AUTHORIZATION_EXPIRY', d))
      : advise(tx, card, t, t.settledAmount + t.openAmount - e.amount, d),
  // An advice carries the authorization's new amount (Lithic's advice overrides it).
  AUTHORIZATION_ADVICE: (tx, card, t, e, d) => advise(tx, card, t, e.amount, d),
  RETURN: (tx, _card, t, e, d) => done(refund(tx, t, e.amount, d)),
  RETURN_REVERSAL: (tx, _card, t, _e, d) => done(reverseReturn(tx, t, d)),
};

export type EventOutcome = { token: string; type: string } & (
  { outcome: 'APPLIED' | 'ALREADY_APPLIED' } | { outcome: 'DECLINED' | 'IGNORED' | 'REFUSED'; reason: string }
);

export interface UpdateAnswer {
  token: string;
  /** Why nothing was looked at (no such card or transaction here), when so. */
  ignored?: string;
  events: EventOutcome[];
}

/** Applies a verified transaction update's events not applied yet, in their order. */
export async function applyTransactionUpdate(u: LithicTransactionUpdate): Promise<UpdateAnswer> {
  const card = await db().card.findFirst({ where: { processorRef: u.cardToken } });
  const t = card && (await repo.transactionOfToken(card.id, u.token, db()));
  const platform = card && (await platforms.findById(card.platformId, db()));
  if (!card || !t || !platform) {
    const moved = u.events.some((e) => e.result === 'APPROVED' && e.type in HANDLERS);
    // Nothing here to settle: an authorization Corridor did not approve (Lithic's stand-in, or
    // a refund posted as a transaction of its own). Acknowledged — a retry would find nothing
    // either — and logged loudly when Lithic moved money on it.
    const entry = { token: u.token, cardToken: u.cardToken, types: u.events.map((e) => e.type) };
    if (moved) log().error(entry, 'Lithic moved money on a card transaction Corridor has no record of');
    else log().info(entry, 'Lithic transaction update for no Corridor card transaction: ignored');
    return { token: u.token, ignored: card ? 'UNKNOWN_TRANSACTION' : 'UNKNOWN_CARD', events: [] };
  }
  const actor = { kind: 'system' as const, platformId: platform.id, ...clockOf(platform) };
  return runAs(actor, async () => {
    const events: EventOutcome[] = [];
    for (const e of u.events) events.push(await applyEvent(card, t.id, e));
    return { token: u.token, events };
  });
}

async function applyEvent(card: CardRow, transactionId: string, e: LithicEvent): Promise<EventOutcome> {
  const base = { token: e.token, type: e.type };
  const handler = HANDLERS[e.type];
  if (e.result !== 'APPROVED') return { ...base, outcome: 'IGNORED', reason: `result ${e.result || 'missing'}` };
  if (!handler) return { ...base, outcome: 'IGNORED', reason: `${e.type} changes nothing Corridor holds` };
  try {
    return await once(card, transactionId, e, handler);
  } catch (err) {
    // The domain refuses it (a clearing of a transaction already settled, a return above what
    // settled): the same event would be refused on every retry, so it is reported, not retried.
    if (!(err instanceof DomainError)) throw err;
    log().warn({ token: e.token, type: e.type, err: err.message }, 'Lithic transaction event refused');
    return { ...base, outcome: 'REFUSED', reason: err.message };
  }
}

/** One event in one transaction: locked, looked for, applied. Re-run when the ledger refused a race. */
async function once(card: CardRow, transactionId: string, e: LithicEvent, handler: Handler): Promise<EventOutcome> {
  const base = { token: e.token, type: e.type };
  for (let attempt = 0; ; attempt++) {
    try {
      return await transaction(async (tx) => {
        const locked = await repo.lockCard(card.platformId, card.id, tx);
        const t = locked && (await repo.lockTransaction(card.platformId, transactionId, tx));
        if (!locked || !t) throw new Error(`card transaction ${transactionId} vanished`);
        if (await repo.eventOfProcessorEvent(t.id, LITHIC_EVENT, e.token, tx))
          return { ...base, outcome: 'ALREADY_APPLIED' as const };
        const declined = await handler(tx, locked, t, e, { [LITHIC_EVENT]: e.token, lithicEventType: e.type });
        return declined
          ? { ...base, outcome: 'DECLINED' as const, reason: declined }
          : { ...base, outcome: 'APPLIED' as const };
      });
    } catch (err) {
      if (!(err instanceof InsufficientFunds) || attempt >= 2) throw err;
    }
  }
}
