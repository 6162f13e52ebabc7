import { clockOf } from '../core/clock';
import { runAs } from '../core/context';
import { transaction, db, isTransactionTimeout } from '../core/db';
import { errorText, log } from '../core/log';
import { InsufficientFunds } from '../ledger/service';
import * as platforms from '../platform/repository';
import * as repo from './repository';
import { authorize, type AuthorizationKind } from './authorization';

// Card authorization decisions in the shape of Lithic's Auth Stream Access (ASA): for every
// authorization on a card, Lithic posts the authorization request to the program's responder
// (here POST /cards/lithic/asa) and waits a few seconds for {"result": "APPROVED" | <decline>,
// "token"}. Corridor decides from its own records — the card's state, its per-transaction limit
// and its funding sources' available balances (lib/cards/authorization.ts, the same decision
// the sandbox simulations take) — records the CardTransaction and holds the amount on the funding
// account. docs/cards.md has the field mapping and how to connect a Lithic program.
//
// Requests are verified as Lithic signs them (lib/cards/lithic.ts).
//
// A repeated request (Lithic retries, or the network duplicates) carries the same transaction
// token: the card's row lock serializes it behind the first, which recorded its decision, and it
// gets the same answer — one hold, never two. A decision that is not ready by the deadline is
// rolled back and answered as a decline: an approval Lithic may never have seen must not hold money.

/** The ASA request fields Corridor reads (Lithic sends more: avs, pos, network scores...). */
interface AsaRequest {
  token: string;
  cardToken: string;
  kind: AuthorizationKind;
  amount: bigint;
  currency: string | null;
  merchant: { descriptor: string; mcc?: string; country?: string; city?: string; acceptorId?: string };
}

// Lithic's ASA `status` values and the card domain's event kinds.
const KINDS: Record<string, AuthorizationKind> = {
  AUTHORIZATION: 'AUTHORIZATION',
  FINANCIAL_AUTHORIZATION: 'FINANCIAL_AUTHORIZATION',
  CREDIT_AUTHORIZATION: 'CREDIT_AUTHORIZATION',
  FINANCIAL_CREDIT_AUTHORIZATION: 'FINANCIAL_CREDIT_AUTHORIZATION',
  BALANCE_INQUIRY: 'BALANCE_INQUIRY',
};

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

export function asaRequestOf(body: string): AsaRequest | { error: string } {
  let b: Record<string, unknown>;
  try {
    b = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { error: 'The body is not JSON' };
  }
  if (!b || typeof b !== 'object' || Array.isArray(b)) return { error: 'The body is not a JSON object' };
  const token = str(b.token);
  // card_token on current requests; card.token on requests of the earlier schema.
  const card = (b.card ?? {}) as Record<string, unknown>;
  const cardToken = str(b.card_token) ?? str(card.token);
  const kind = KINDS[str(b.status) ?? ''];
  const amount = b.amount;
  const m = (b.merchant ?? {}) as Record<string, unknown>;
  if (!token) return { error: 'token is required' };
  if (!cardToken) return { error: 'card_token is required' };
  if (!kind) return { error: `status ${JSON.stringify(b.status)} is not an authorization request Corridor decides` };
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0)
    return { error: 'amount must be a whole number of cents' };
  return {
    token,
    cardToken,
    kind,
    amount: BigInt(amount),
    currency: str(b.cardholder_currency) ?? null,
    merchant: {
      descriptor: str(m.descriptor) ?? '',
      ...(str(m.mcc) ? { mcc: str(m.mcc) } : {}),
      ...(str(m.country) ? { country: str(m.country) } : {}),
      ...(str(m.city) ? { city: str(m.city) } : {}),
      ...(str(m.acceptor_id) ? { acceptorId: str(m.acceptor_id) } : {}),
    },
  };
}

// The card domain's decline reasons as Lithic's ASA result values.
const RESULT_OF: Record<string, string> = {
  CARD_PAUSED: 'CARD_PAUSED',
  CARD_CLOSED: 'CARD_PAUSED',
  CARD_NOT_ACTIVE: 'CARD_PAUSED',
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  NO_FUNDING_SOURCE: 'INSUFFICIENT_FUNDS',
  EXCEEDS_MAX_SPEND_PER_TRANSACTION: 'VELOCITY_EXCEEDED',
  CURRENCY_MISMATCH: 'UNAUTHORIZED_MERCHANT',
  UNKNOWN_CARD: 'CARD_PAUSED',
  DEADLINE_EXCEEDED: 'INSUFFICIENT_FUNDS',
};

export interface AsaAnswer {
  result: string;
  token: string;
  /** Corridor's own reason for a decline (Lithic ignores fields it does not know). */
  reason?: string;
  /** BALANCE_INQUIRY: the funding account's available balance, in cents. */
  balance?: { amount: number; available: number };
}

class DeadlineExceeded extends Error {}

function answerOf(req: AsaRequest, event: repo.CardEventRow): AsaAnswer {
  if (event.outcome === 'APPROVED') {
    const available = (event.details as { availableBalance?: string }).availableBalance;
    return available === undefined
      ? { result: 'APPROVED', token: req.token }
      : { result: 'APPROVED', token: req.token, balance: { amount: Number(available), available: Number(available) } };
  }
  const reason = event.declineReason ?? 'DECLINED';
  return { result: RESULT_OF[reason] ?? 'UNAUTHORIZED_MERCHANT', token: req.token, reason };
}

/**
 * Where a decision stands, shared between it and the deadline's timer: the timer may answer a
 * decline only while the decision is still deciding (and it then abandons it: the decision rolls
 * back instead of committing); once the decision is committing, its answer is the one given, a
 * little late rather than a decline beside a hold that stays.
 */
type Gate = { state: 'deciding' | 'committing' | 'abandoned' };

// A function, not an inline comparison: the timer changes the state while the decision awaits.
const abandoned = (gate: Gate) => gate.state === 'abandoned';

const lateDecline = (req: AsaRequest): AsaAnswer => ({
  result: RESULT_OF.DEADLINE_EXCEEDED,
  token: req.token,
  reason: 'DEADLINE_EXCEEDED',
});

/**
 * Decides one verified ASA request (recorded, with its hold, when approved), answering by the
 * deadline whatever the database does: a card row locked by another transaction, a busy pool or
 * the single connection of the embedded database waiting behind other work.
 */
export async function decideAsa(req: AsaRequest, deadlineMs: number): Promise<AsaAnswer> {
  const deadline = Date.now() + deadlineMs;
  const gate: Gate = { state: 'deciding' };
  const decision = decide(req, deadline, gate);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deadlineMs);
  });
  try {
    const first = await Promise.race([decision, late]);
    if (first) return first;
    if (gate.state === 'deciding') {
      gate.state = 'abandoned';
      decision.catch((err: unknown) => {
        if (!(err instanceof DeadlineExceeded))
          log().error({ token: req.token, err: errorText(err) }, 'abandoned card decision failed');
      });
      log().warn({ token: req.token, deadlineMs }, 'card authorization not decided by its deadline: declined');
      return lateDecline(req);
    }
    return await decision;
  } catch (err) {
    if (!(err instanceof DeadlineExceeded)) throw err;
    log().warn({ token: req.token, deadlineMs }, 'card authorization past its deadline: declined');
    return lateDecline(req);
  } finally {
    clearTimeout(timer);
  }
}

async function decide(req: AsaRequest, deadline: number, gate: Gate): Promise<AsaAnswer> {
  const found = await db().card.findFirst({ where: { processorRef: req.cardToken } });
  const platform = found && (await platforms.findById(found.platformId, db()));
  if (!found || !platform) return { result: RESULT_OF.UNKNOWN_CARD, token: req.token, reason: 'UNKNOWN_CARD' };
  if (req.currency && req.currency !== found.currency)
    return { result: RESULT_OF.CURRENCY_MISMATCH, token: req.token, reason: 'CURRENCY_MISMATCH' };
  const actor = { kind: 'system' as const, platformId: platform.id, ...clockOf(platform) };
  return runAs(actor, () => decideOnCard(found.platformId, found.id, req, deadline, gate));
}

async function decideOnCard(platformId: string, cardId: string, req: AsaRequest, deadline: number, gate: Gate) {
  // A concurrent payment can take the funds between the decision's balance read and its hold:
  // the ledger then refuses the hold and the request is decided again (declined, or paid from
  // the next funding source), as the sandbox simulations do.
  for (let attempt = 0; ; attempt++) {
    const left = deadline - Date.now();
    if (left <= 0 || abandoned(gate)) throw new DeadlineExceeded();
    try {
      return await transaction(
        async (tx) => {
          if (abandoned(gate)) throw new DeadlineExceeded();
          gate.state = 'deciding';
          const card = await repo.lockCard(platformId, cardId, tx);
          if (!card) return { result: RESULT_OF.UNKNOWN_CARD, token: req.token, reason: 'UNKNOWN_CARD' };
          // The same request again: the decision it got (one hold, whatever the number of requests).
          const earlier = await repo.eventOfToken(card.id, req.token, req.kind, tx);
          if (earlier) return answerOf(req, earlier);
          await authorize(
            tx,
            card,
            { kind: req.kind, token: req.token, amount: req.amount, currency: card.currency, merchant: req.merchant },
            { scenario: 'APPROVE' },
          );
          const event = await repo.eventOfToken(card.id, req.token, req.kind, tx);
          if (!event) throw new Error(`no decision recorded for ${req.token}`);
          // Too late for Lithic to take the answer, or already answered with a decline: nothing of it stays.
          if (Date.now() > deadline || abandoned(gate)) throw new DeadlineExceeded();
          gate.state = 'committing';
          return answerOf(req, event);
        },
        // Its statements and lock waits end with the deadline (on a PostgreSQL server), so an
        // abandoned decision does not hold a connection long.
        { timeoutMs: Math.max(left, 50) },
      );
    } catch (err) {
      if (isTransactionTimeout(err)) throw new DeadlineExceeded();
      if (!(err instanceof InsufficientFunds) || attempt >= 2) throw err;
      log().info({ token: req.token, err: errorText(err) }, 'card authorization decided again');
    }
  }
}
