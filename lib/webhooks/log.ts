import { DomainError, invalidInput, notFound } from '../core/errors';
import { parseJson } from '../core/json';
import * as repo from './log-repository';
import { findEndpoint } from './repository';
import { deliverDueWebhooks } from './service';

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
  lastAttempt: DeliveryAttempt | null;
}

export interface DeliveryPage {
  data: Delivery[];
  hasMore: boolean;
  nextCursor?: string;
}

type EventRow = NonNullable<Awaited<ReturnType<typeof repo.findEvent>>>;
type AttemptRow = Awaited<ReturnType<typeof repo.attemptsOfEvents>>[number];

const attempt = (a: AttemptRow): DeliveryAttempt => ({
  attempt: a.attempt,
  url: a.url,
  startedAt: a.startedAt,
  responseStatus: a.responseStatus,
  error: a.error,
  latencyMs: a.latencyMs,
  responseExcerpt: a.responseExcerpt,
  succeeded: a.succeeded,
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

/** One event with every attempt (newest first) and its body as recorded. */
export async function getDelivery(platformId: string, id: string) {
  const event = await repo.findEvent(platformId, id);
  if (!event) throw notFound('REFERENCE_NOT_FOUND', `Webhook ${id}`);
  const attempts = await repo.attemptsOfEvents([id]);
  return { ...delivery(event, attempts[0]), body: parseJson(event.payload), history: attempts.map(attempt) };
}

export function countFailed(platformId: string): Promise<number> {
  return repo.countByStatus(platformId, 'FAILED');
}

/**
 * Sends a settled event again, now, to the endpoint configured now; the attempt is recorded like
 * any other (numbered after the earlier ones) and the event's state follows its outcome — a
 * failure is retried with the usual backoff while the event is younger than the retry window.
 * Returns the event as it stands after the send (still PENDING if the worker took the send).
 */
export async function replay(platformId: string, id: string) {
  const event = await repo.findEvent(platformId, id);
  if (!event) throw notFound('REFERENCE_NOT_FOUND', `Webhook ${id}`);
  if (!(await findEndpoint(platformId))?.webhookEndpoint)
    throw new DomainError(
      'WEBHOOK_ENDPOINT_NOT_SET',
      'No webhook endpoint is configured; set one in the platform configuration first',
    );
  if (!(await repo.requeue(platformId, id)))
    throw new DomainError('INVALID_STATE_TRANSITION', `Webhook ${id} is already waiting to be delivered`);
  await deliverDueWebhooks({ platformId });
  return getDelivery(platformId, id);
}
