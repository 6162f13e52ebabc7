import { errorText, log } from '../core/log';
import { currentCorridor } from '../core/context';
import { clockOf, now } from '../core/clock';
import { runAs } from '../core/context';
import { transaction } from '../core/db';
import { DomainError } from '../core/errors';
import { stringifyJson } from '../core/json';
import { newId } from '../core/ids';
import { port } from '../core/ports';
import { currentTraceParent, runOutgoing } from '../core/tracing';
import type { Tx } from '../core/db';
import { signBody } from './keys';
import * as repo from './repository';
import { webhookTransport, type SendOptions, type SendResult } from './transport';

/**
 * Webhooks whose answer means something (INCOMING_PAYMENT.PENDING: the platform approves or
 * rejects the payment): by event type, what the answer decides, in the delivery's transaction.
 * True when the answer was one (the webhook counts as delivered). Plugged in by lib/wiring.ts.
 */
export type AnswerInterpreter = (tx: Tx, payload: string, status: number | undefined, body: string) => Promise<boolean>;
export const answerInterpreters = port<Record<string, AnswerInterpreter>>('webhooks.answer-interpreters');

// Webhook delivery from the outbox (model Event). The worker calls deliverDueWebhooks(); it
// signs each event's stored body, POSTs it to the platform's webhookEndpoint and records the
// attempt. Delivery never runs inside the API request that caused the event.
//
// Retry policy (issue 3, "as the reference": retried for up to 7 days, at most 30 minutes
// between attempts). Exponential backoff on the attempt number: 15 s, 30 s, 1 min, ... doubling
// (plus up to 10% jitter so a recovering receiver is not hit by every event at once), capped at
// 30 minutes. The window counts from the event's creation on the platform's clock: the last
// attempt is made at the 7-day mark at the latest, and an event still failing then is FAILED.
//
// A platform without a webhook endpoint: its events are SKIPPED as they are written (kept, never
// sent; an insert trigger, migration 20261121011000_event_skip_at_insert). Setting an endpoint
// later starts delivery from then on rather than replaying a backlog of stale events, and a
// platform that never configures webhooks does not grow a pending queue the worker has to scan
// forever. Removing the endpoint skips events still retrying: the delivery pass marks them
// SKIPPED when they come due.
//
// Acknowledged = any 2xx, or 409, which the reference defines for webhook receivers as "already
// processed (duplicate id)": delivery is at-least-once, and a receiver that already has the event
// must not be retried for 7 days.
export const FIRST_RETRY_DELAY_MS = 15_000;
export const MAX_RETRY_DELAY_MS = 30 * 60_000;
export const RETRY_WINDOW_MS = 7 * 24 * 60 * 60_000;
/** How long a claimed event stays reserved for the process sending it (well above the timeout). */
const LEASE_MS = 2 * 60_000;
const CONCURRENCY = 8;

/** Delay before attempt n+1 after attempt n failed. */
export function retryDelayMs(attempt: number, jitter = Math.random()): number {
  const base = FIRST_RETRY_DELAY_MS * 2 ** Math.min(attempt - 1, 20);
  return Math.min(MAX_RETRY_DELAY_MS, Math.round(base * (1 + 0.1 * jitter)));
}

export function isAcknowledged(status: number | undefined): boolean {
  return status !== undefined && ((status >= 200 && status < 300) || status === 409);
}

/** What becomes of an event whose attempt `attempt` failed at `at`. */
export function afterFailure(createdAt: Date, attempt: number, at: Date): repo.EventOutcome {
  const deadline = createdAt.getTime() + RETRY_WINDOW_MS;
  if (at.getTime() >= deadline) return { status: 'FAILED' };
  return { status: 'PENDING', nextAttemptAt: new Date(Math.min(at.getTime() + retryDelayMs(attempt), deadline)) };
}

export interface DeliverySummary {
  skipped: number;
  attempted: number;
  delivered: number;
  retrying: number;
  failed: number;
}

/**
 * Sends every due event (of one platform, or all) once. Safe to run in several processes at
 * once: events are claimed with SKIP LOCKED and leased. Returns what happened, for tests and logs.
 */
export async function deliverDueWebhooks(
  opts: { platformId?: string; limit?: number; send?: SendOptions; stopping?: () => boolean } = {},
): Promise<DeliverySummary> {
  const limit = opts.limit ?? 20;
  const summary: DeliverySummary = { skipped: 0, attempted: 0, delivered: 0, retrying: 0, failed: 0 };
  summary.skipped = await repo.skipWithoutEndpoint(new Date(), opts.platformId);
  for (;;) {
    // A worker shutting down leases no more events; those it leased it tries now.
    if (opts.stopping?.()) return summary;
    const batch = await repo.claimDue(new Date(), limit, LEASE_MS, opts.platformId);
    let next = 0;
    const lane = async () => {
      while (next < batch.length) {
        const event = batch[next++];
        summary.attempted++;
        const started = performance.now();
        try {
          const outcome = await runAs({ kind: 'system', platformId: event.platformId, ...clockOf(event) }, () =>
            deliverOne(event, opts.send),
          );
          summary[outcome.status === 'DELIVERED' ? 'delivered' : outcome.status === 'FAILED' ? 'failed' : 'retrying']++;
          currentCorridor().metrics.webhookAttempts.inc({ outcome: outcome.status });
          log().info(
            {
              webhookEvent: event.id,
              platformId: event.platformId,
              attempt: event.attempts,
              outcome: outcome.status,
              ms: Math.round(performance.now() - started),
            },
            'webhook attempt',
          );
        } catch (err) {
          // Recording failed (database trouble): the lease runs out and the event is tried again.
          log().error(
            { webhookEvent: event.id, platformId: event.platformId, attempt: event.attempts, err: errorText(err) },
            'webhook attempt not recorded',
          );
          summary.retrying++;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, batch.length) }, lane));
    if (batch.length < limit) return summary;
  }
}

async function signedPost(platformId: string, endpoint: string, body: string, send?: SendOptions): Promise<SendResult> {
  let signature: string;
  try {
    signature = await signBody(platformId, body);
  } catch (err) {
    log().error({ platformId, err: errorText(err) }, 'cannot sign webhooks');
    return { error: 'the webhook signing key is unavailable (master key mismatch?)', latencyMs: 0, body: '' };
  }
  return webhookTransport.get().post(endpoint, body, signature, send);
}

function attemptRow(
  platformId: string,
  eventId: string,
  attempt: number,
  url: string,
  startedAt: Date,
  r: SendResult,
  succeeded: boolean,
  replayedBy: string | null = null,
): repo.AttemptRow {
  return {
    id: newId('WebhookAttempt'),
    platformId,
    eventId,
    attempt,
    url,
    startedAt,
    responseStatus: r.status ?? null,
    error: r.error?.slice(0, 1000) ?? null,
    latencyMs: r.latencyMs,
    responseExcerpt: r.body || null,
    succeeded,
    replayedBy,
  };
}

// The stored body begins {"id":…,"type":…,"timestamp":"<ISO>" (events/outbox.ts writes it so).
const STORED_TIMESTAMP = /^(\{"id":"[^"\\]*","type":"[^"\\]*","timestamp":")[^"]*"/;

/**
 * The body an attempt sends: the stored event with `timestamp` set to this attempt's send time
 * (reference: "when the webhook was sent"), so a retry days later does not look days old. The
 * id, type and data are the stored ones byte for byte; the signature covers the body as sent.
 */
export function bodyAt(payload: string, sentAt: Date): string {
  return payload.replace(STORED_TIMESTAMP, (_m, head: string) => `${head}${sentAt.toISOString()}"`);
}

/** An attempt made and recorded: the event's new state and the attempt's own row. */
export interface AttemptOutcome {
  status: repo.EventOutcome['status'];
  attempt: repo.AttemptRow;
}

/** Why an attempt failed, for its span: the answer's status, else the error's code, never its text. */
function failureType(attempt: repo.AttemptRow): string {
  if (attempt.responseStatus !== null) return String(attempt.responseStatus);
  const code = /^([A-Z][A-Z0-9_]+):/.exec(attempt.error ?? '')?.[1];
  if (code) return code;
  return /^no answer within/.test(attempt.error ?? '') ? 'timeout' : '_OTHER';
}

/** The endpoint's scheme, host and port, for a span: never its path or query (they may hold a secret). */
function endpointAttributes(endpoint: string): Record<string, string | number> {
  try {
    const url = new URL(endpoint);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return {
      'url.scheme': url.protocol.replace(/:$/, ''),
      'server.address': url.hostname.replace(/^\[|\]$/g, ''),
      'server.port': port,
    };
  } catch {
    return {};
  }
}

/**
 * One delivery attempt — the signed POST and its recording — in a span of its own when traces are
 * on (lib/core/tracing.ts runOutgoing): the method, the endpoint's host, the event, the attempt's
 * number, the answer's status and the outcome; never the body, the signature or the endpoint's
 * path. The span links to the one that recorded the event (a request's or a job's) and its
 * traceparent goes out with the POST (a header beside the signature, which covers the body only).
 */
function tracedAttempt<T extends AttemptOutcome>(
  event: { id: string; type: string; platformId: string; attempts: number; traceParent: string | null },
  endpoint: string,
  attempt: (traceParent: string | undefined) => Promise<T>,
): Promise<T> {
  return runOutgoing(
    `webhook ${event.type}`,
    () => ({
      attributes: {
        'http.request.method': 'POST',
        ...endpointAttributes(endpoint),
        'corridor.platform_id': event.platformId,
        'corridor.webhook.event_id': event.id,
        'corridor.webhook.event_type': event.type,
        'corridor.webhook.attempt': event.attempts,
      },
      traceParents: [event.traceParent],
    }),
    attempt,
    (o) => ({
      attributes: {
        ...(o.attempt.responseStatus !== null ? { 'http.response.status_code': o.attempt.responseStatus } : {}),
        'corridor.webhook.outcome': o.status,
      },
      ...(o.attempt.succeeded ? {} : { errorType: failureType(o.attempt) }),
    }),
  );
}

function deliverOne(event: repo.DueEvent, send?: SendOptions, replayedBy?: string): Promise<AttemptOutcome> {
  return tracedAttempt(event, event.webhookEndpoint, (traceParent) =>
    attemptOne(event, { ...send, traceParent }, replayedBy),
  );
}

async function attemptOne(event: repo.DueEvent, send: SendOptions, replayedBy?: string): Promise<AttemptOutcome> {
  const startedAt = now();
  const result = await signedPost(event.platformId, event.webhookEndpoint, bodyAt(event.payload, startedAt), send);
  return transaction(async (tx) => {
    // An incoming payment waits on the platform's answer to this webhook; an answer (403 and 422
    // included) is a delivery, not a failure to retry.
    const interpret = answerInterpreters.get()[event.type];
    const answered = interpret !== undefined && (await interpret(tx, event.payload, result.status, result.body));
    const succeeded = answered || isAcknowledged(result.status);
    const outcome: repo.EventOutcome = succeeded
      ? { status: 'DELIVERED', deliveredAt: now() }
      : afterFailure(event.createdAt, event.attempts, now());
    const row = attemptRow(
      event.platformId,
      event.id,
      event.attempts,
      event.webhookEndpoint,
      startedAt,
      result,
      succeeded,
      replayedBy ?? null,
    );
    await repo.finishAttempt(row, outcome, tx);
    return { status: outcome.status, attempt: row };
  });
}

/**
 * A replay from the console: the event is claimed on its own (not through the worker's queue, so
 * the attempt made is this replay's and no other event's) and sent now; the attempt is recorded
 * with who replayed it. Null when the event is already waiting to be sent or has no endpoint.
 */
export async function replayEvent(
  platformId: string,
  eventId: string,
  replayedBy: string,
  send?: SendOptions,
): Promise<AttemptOutcome | null> {
  const event = await repo.claimForReplay(new Date(), LEASE_MS, platformId, eventId);
  if (!event) return null;
  const sent = await runAs({ kind: 'system', platformId, ...clockOf(event) }, () =>
    deliverOne(event, send, replayedBy),
  );
  currentCorridor().metrics.webhookAttempts.inc({ outcome: sent.status });
  log().info(
    { webhookEvent: event.id, platformId, attempt: event.attempts, outcome: sent.status, replayedBy },
    'webhook attempt',
  );
  return sent;
}

/**
 * POST /sandbox/webhooks/test: a TEST webhook sent now to the configured endpoint, answered with
 * the receiver's status and how long the attempt took. Never with what the receiver answered in
 * its body: the endpoint is whatever URL the caller configured, and the service must not become
 * a way to read from hosts it can reach. Recorded as a TEST event with its one attempt; not retried.
 */
export async function sendTestWebhook(platformId: string, send?: SendOptions) {
  const { endpoint, result, delivered } = await sendTest(platformId, send);
  const answer = {
    url: endpoint,
    ...(result.status !== undefined ? { response_status: result.status } : {}),
    response_time_ms: result.latencyMs,
  };
  if (!delivered) {
    const why =
      result.status !== undefined ? `answered HTTP ${result.status}` : `could not be reached: ${result.error}`;
    throw new DomainError('WEBHOOK_DELIVERY_ERROR', `The webhook endpoint ${why}`, {
      ...answer,
      ...(result.error ? { error: result.error } : {}),
    });
  }
  return answer as { url: string; response_status: number; response_time_ms: number };
}

/**
 * The test send itself, for the sandbox call and the console's "Send a test event": a TEST
 * webhook (the reference's kind for tests; data {}) signed like every event, sent now to the
 * configured endpoint, recorded as a TEST event with its one attempt. Not retried; moves no money.
 */
export async function sendTest(platformId: string, send?: SendOptions) {
  const endpoint = (await repo.findEndpoint(platformId))?.webhookEndpoint;
  if (!endpoint)
    throw new DomainError(
      'WEBHOOK_ENDPOINT_NOT_SET',
      'No webhook endpoint is configured; set webhookEndpoint in the platform configuration',
    );
  const id = newId('Webhook');
  const at = now();
  const payload = stringifyJson({ id, type: 'TEST', timestamp: at, data: {} });
  // The event is this request's (its span is the attempt's parent, so no link): a replay links to it.
  const traceParent = currentTraceParent() ?? null;
  const event = { id, type: 'TEST', platformId, attempts: 1, traceParent: null };
  const sent = await tracedAttempt(event, endpoint, async (attemptTrace) => {
    const result = await signedPost(platformId, endpoint, payload, { ...send, traceParent: attemptTrace });
    const delivered = result.status !== undefined && result.status >= 200 && result.status < 300;
    const attempt = attemptRow(platformId, id, 1, endpoint, at, result, delivered);
    await transaction((tx) =>
      repo.insertTestEvent({ id, platformId, payload, createdAt: at, delivered, traceParent }, attempt, tx),
    );
    return { status: delivered ? ('DELIVERED' as const) : ('FAILED' as const), attempt, result, delivered };
  });
  return { eventId: id, endpoint, result: sent.result, delivered: sent.delivered, attempt: sent.attempt };
}
