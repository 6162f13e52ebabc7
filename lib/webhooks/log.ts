import { DomainError, invalidInput, notFound } from '../core/errors';
import { parseJson } from '../core/json';
import { now } from '../core/clock';
import * as repo from './log-repository';
import { findEndpoint, findEventTypes, saveEventTypes } from './repository';
import { EVENT_KINDS, isEventKind } from './kinds';
import { replayEvent, sendTest } from './service';

// The webhook delivery log the console shows: each outbox event with its delivery state and its
// attempts (response codes, errors, latency), and a replay that sends a settled event again.
export interface DeliveryAttempt {
  attempt: number;
  url: string;
  startedAt: Date;
  responseStatus: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string | null;
  succeeded: boolean;
  /** Who replayed the event from the console; null for the worker's first try and retries. */
  replayedBy: string | null;
}

export interface Delivery {
  id: string;
  type: string;
  subjectId: string | null;
  status: string;
  attempts: number;
  createdAt: Date;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  /** Why a SKIPPED event was not sent: NO_ENDPOINT or KIND_NOT_CHOSEN. */
  skipReason: string | null;
  lastAttempt: DeliveryAttempt | null;
}

export interface DeliveryPage {
  data: Delivery[];
  hasMore: boolean;
  nextCursor?: string;
}

type EventRow = NonNullable<Awaited<ReturnType<typeof repo.findEvent>>>;
type AttemptRow = Omit<Awaited<ReturnType<typeof repo.attemptsOfEvents>>[number], 'replayedBy'> & {
  replayedBy?: string | null;
};

const attempt = (a: AttemptRow): DeliveryAttempt => ({
  attempt: a.attempt,
  url: a.url,
  startedAt: a.startedAt,
  responseStatus: a.responseStatus,
  error: a.error,
  latencyMs: a.latencyMs,
  responseExcerpt: a.responseExcerpt,
  succeeded: a.succeeded,
  replayedBy: a.replayedBy ?? null,
});

const delivery = (e: EventRow, last: AttemptRow | undefined): Delivery => ({
  id: e.id,
  type: e.type,
  subjectId: e.subjectId,
  status: e.status,
  attempts: e.attempts,
  createdAt: e.createdAt,
  nextAttemptAt: e.nextAttemptAt,
  deliveredAt: e.deliveredAt,
  skipReason: e.skipReason,
  lastAttempt: last ? attempt(last) : null,
});

function decodeSeq(cursor: string | undefined): bigint | undefined {
  if (cursor === undefined) return undefined;
  if (!/^[1-9][0-9]{0,18}$/.test(cursor))
    throw invalidInput('cursor is not valid: pass the nextCursor of a previous page', [
      { field: 'cursor', message: 'is not a cursor issued for this list' },
    ]);
  return BigInt(cursor);
}

/** Events newest first. The cursor is the insertion sequence of the last event shown. */
export async function listDeliveries(
  platformId: string,
  filter: repo.EventFilter,
  limit: number,
  cursor?: string,
): Promise<DeliveryPage> {
  const rows = await repo.listEvents(platformId, filter, limit + 1, decodeSeq(cursor));
  const page = rows.slice(0, limit);
  const attempts = await repo.attemptsOfEvents(page.map((e) => e.id));
  const latest = new Map<string, AttemptRow>();
  for (const a of attempts) if (!latest.has(a.eventId)) latest.set(a.eventId, a);
  const last = page[page.length - 1];
  return {
    data: page.map((e) => delivery(e, latest.get(e.id))),
    hasMore: rows.length > limit,
    ...(rows.length > limit && last ? { nextCursor: String(last.seq) } : {}),
  };
}

/**
 * Why an event of `type` cannot be replayed now (no endpoint, or the endpoint does not take the
 * kind today), or null. The replay refuses with it, and the console disables its Replay control
 * with the same words before anyone clicks (getDelivery's replayBlocked).
 */
async function replayBlock(platformId: string, type: string): Promise<DomainError | null> {
  if (!(await findEndpoint(platformId))?.webhookEndpoint)
    return new DomainError(
      'WEBHOOK_ENDPOINT_NOT_SET',
      'No webhook endpoint is configured; set one in the platform configuration first',
    );
  const kinds = await findEventTypes(platformId);
  if (kinds && type !== 'TEST' && !kinds.includes(type))
    return new DomainError(
      'INVALID_STATE_TRANSITION',
      `The webhook endpoint does not receive ${type} events; choose that kind first`,
    );
  return null;
}

/**
 * One event with every attempt (newest first) and its body as recorded; `replayBlocked` says why
 * a replay would be refused now (null when it would be sent).
 */
export async function getDelivery(platformId: string, id: string) {
  const event = await repo.findEvent(platformId, id);
  if (!event) throw notFound('REFERENCE_NOT_FOUND', `Webhook ${id}`);
  const attempts = await repo.attemptsOfEvents([id]);
  const blocked = await replayBlock(platformId, event.type);
  return {
    ...delivery(event, attempts[0]),
    body: parseJson(event.payload),
    history: attempts.map(attempt),
    replayBlocked: blocked?.message ?? null,
  };
}

export function countFailed(platformId: string): Promise<number> {
  return repo.countByStatus(platformId, 'FAILED');
}

/**
 * Sends a settled event again, now, to the endpoint configured now, as `by` (a staff member): the
 * attempt is its own (numbered after the earlier ones, marked as this replay) and the event's
 * state follows its outcome — a failure is retried with the usual backoff while the event is
 * younger than the retry window. Returns the event after the send and the replay's own attempt.
 */
export async function replay(platformId: string, id: string, by: string) {
  const event = await repo.findEvent(platformId, id);
  if (!event) throw notFound('REFERENCE_NOT_FOUND', `Webhook ${id}`);
  const blocked = await replayBlock(platformId, event.type);
  if (blocked) throw blocked;
  const sent = await replayEvent(platformId, id, by);
  if (!sent) throw new DomainError('INVALID_STATE_TRANSITION', `Webhook ${id} is already waiting to be delivered`);
  return { ...(await getDelivery(platformId, id)), replayAttempt: attempt(sent.attempt) };
}

/** The console's "Send a test event": the attempt's outcome, whether or not the receiver took it. */
export async function sendTestEvent(platformId: string) {
  const sent = await sendTest(platformId);
  return { eventId: sent.eventId, delivered: sent.delivered, attempt: attempt(sent.attempt) };
}

/** The kinds the endpoint receives: `all` when no choice was made (every kind, new ones too). */
export async function eventKinds(platformId: string): Promise<{ all: boolean; chosen: string[] }> {
  const chosen = await findEventTypes(platformId);
  return chosen === null ? { all: true, chosen: [...EVENT_KINDS] } : { all: false, chosen };
}

/**
 * Chooses the kinds the endpoint receives. Every kind chosen is stored as "all" (so kinds added
 * later are received too). Events of kinds left out are not sent from now on, those waiting
 * for a retry included (the delivery pass skips them, saying why).
 */
export async function chooseEventKinds(platformId: string, kinds: string[]) {
  const unknown = kinds.filter((k) => !isEventKind(k));
  if (unknown.length)
    throw invalidInput(`Unknown event kind(s): ${unknown.join(', ')}`, [
      { field: 'eventTypes', message: `${unknown.join(', ')} is not a webhook event kind` },
    ]);
  const chosen = EVENT_KINDS.filter((k) => kinds.includes(k));
  await saveEventTypes(platformId, chosen.length === EVENT_KINDS.length ? null : chosen, now());
  return eventKinds(platformId);
}

/** The endpoint and the kinds it receives, for the console's webhooks page. */
export async function webhookSettings(platformId: string) {
  const endpoint = (await findEndpoint(platformId))?.webhookEndpoint ?? null;
  return { endpoint, kinds: [...EVENT_KINDS], ...(await eventKinds(platformId)) };
}
