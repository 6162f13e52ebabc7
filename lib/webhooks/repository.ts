import { platformNow } from '../core/sql';
import { Prisma, db, type Tx } from '../core/db';

// Webhook delivery persistence: signing keys, claiming due outbox events, recording attempts.

export function findSigningKey(platformId: string, tx: Tx) {
  return tx.webhookSigningKey.findUnique({ where: { platformId } });
}

/** Inserts unless the platform already has a key (a concurrent first use may win the race). */
export async function insertSigningKeyIfAbsent(
  row: { platformId: string; publicKeyPem: string; encryptedPrivateKey: string; createdAt: Date },
  tx: Tx,
) {
  await tx.webhookSigningKey.createMany({ data: [row], skipDuplicates: true });
}

export interface DueEvent {
  id: string;
  platformId: string;
  type: string;
  payload: string;
  /** The attempt number this claim is for (1 = first try). */
  attempts: number;
  createdAt: Date;
  clockOffsetMs: bigint;
  clockFrozenAt: Date | null;
  webhookEndpoint: string;
  /** The span that recorded the event (traces on), which its attempts' spans link to. */
  traceParent: string | null;
}

// Whether an event of alias `e` is of a kind the endpoint receives (alias `s`: the platform's
// WebhookSettings row, LEFT JOINed; no row means every kind). TEST events always are.
const kindChosenOf = (alias: string) => {
  const e = Prisma.raw(`"${alias}"`);
  return Prisma.sql`(s."platformId" IS NULL OR ${e}."type" = 'TEST' OR ${e}."type" = ANY (s."eventTypes"))`;
};

/**
 * Events that will not be sent are not kept waiting: new ones are SKIPPED as they are written
 * (see service.ts), and those left waiting when an endpoint is removed, or when their kind is
 * no longer chosen, are SKIPPED here when they come due (with why). Events claimed right now
 * (leased, nextAttemptAt in the future) are left.
 */
export async function skipWithoutEndpoint(wallNow: Date, platformId?: string): Promise<number> {
  return db().$executeRaw`
    UPDATE "Event" e SET "status" = 'SKIPPED', "nextAttemptAt" = NULL,
      "skipReason" = CASE WHEN p."webhookEndpoint" IS NULL THEN 'NO_ENDPOINT' ELSE 'KIND_NOT_CHOSEN' END
    FROM "Platform" p LEFT JOIN "WebhookSettings" s ON s."platformId" = p."id"
    WHERE p."id" = e."platformId" AND e."status" = 'PENDING'
      AND (p."webhookEndpoint" IS NULL OR NOT ${kindChosenOf('e')})
      AND (e."nextAttemptAt" IS NULL OR e."nextAttemptAt" <= ${platformNow('p', wallNow)})
      ${platformId ? Prisma.sql`AND e."platformId" = ${platformId}` : Prisma.empty}`;
}

/**
 * Claims up to `limit` due events with an endpoint to send to. "Due" is judged on each
 * platform's own sandbox clock (as the job queue does). The claim is a lease, not a held lock:
 * it counts the attempt and moves nextAttemptAt `leaseMs` ahead, so no transaction stays open
 * during the HTTP call and an attempt lost with its process is taken up again after the lease.
 * SKIP LOCKED keeps several processes from claiming the same event.
 */
export async function claimDue(
  wallNow: Date,
  limit: number,
  leaseMs: number,
  platformId?: string,
): Promise<DueEvent[]> {
  return db().$queryRaw<DueEvent[]>`
    UPDATE "Event" e
    SET "attempts" = e."attempts" + 1,
        "nextAttemptAt" = ${platformNow('due', wallNow)} + (${leaseMs} * interval '1 millisecond')
    FROM (
      SELECT e2."id", p."clockOffsetMs", p."clockFrozenAt", p."webhookEndpoint"
      FROM "Event" e2 JOIN "Platform" p ON p."id" = e2."platformId"
        LEFT JOIN "WebhookSettings" s ON s."platformId" = p."id"
      WHERE e2."status" = 'PENDING' AND p."webhookEndpoint" IS NOT NULL
        AND ${kindChosenOf('e2')}
        AND (e2."nextAttemptAt" IS NULL OR e2."nextAttemptAt" <= ${platformNow('p', wallNow)})
        ${platformId ? Prisma.sql`AND e2."platformId" = ${platformId}` : Prisma.empty}
      ORDER BY e2."nextAttemptAt" NULLS FIRST, e2."seq"
      LIMIT ${limit}
      FOR UPDATE OF e2 SKIP LOCKED
    ) due
    WHERE e."id" = due."id"
    RETURNING e."id", e."platformId", e."type", e."payload", e."attempts", e."createdAt", due."clockOffsetMs", due."clockFrozenAt", due."webhookEndpoint", e."traceParent"`;
}

/**
 * Claims one settled event (delivered, failed or skipped) for a replay: back to PENDING, its
 * attempt counted and leased as claimDue leases, so the worker leaves it to the replay and the
 * replay's attempt gets its own number. Null when the event is already waiting to be sent.
 */
export async function claimForReplay(
  wallNow: Date,
  leaseMs: number,
  platformId: string,
  id: string,
): Promise<DueEvent | null> {
  const rows = await db().$queryRaw<DueEvent[]>`
    UPDATE "Event" e
    SET "status" = 'PENDING', "skipReason" = NULL, "attempts" = e."attempts" + 1,
        "nextAttemptAt" = ${platformNow('p', wallNow)} + (${leaseMs} * interval '1 millisecond')
    FROM "Platform" p
    WHERE p."id" = e."platformId" AND e."platformId" = ${platformId} AND e."id" = ${id}
      AND e."status" <> 'PENDING' AND p."webhookEndpoint" IS NOT NULL
    RETURNING e."id", e."platformId", e."type", e."payload", e."attempts", e."createdAt", p."clockOffsetMs", p."clockFrozenAt", p."webhookEndpoint", e."traceParent"`;
  return rows[0] ?? null;
}

export interface AttemptRow {
  id: string;
  platformId: string;
  eventId: string;
  attempt: number;
  url: string;
  startedAt: Date;
  responseStatus: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string | null;
  succeeded: boolean;
  replayedBy?: string | null;
}

export type EventOutcome =
  { status: 'DELIVERED'; deliveredAt: Date } | { status: 'FAILED' } | { status: 'PENDING'; nextAttemptAt: Date };

/**
 * Records an attempt and the event's new state together. The event is only moved if it is still
 * at this attempt (a process that lost its lease must not overwrite a newer attempt's outcome).
 */
export async function finishAttempt(attempt: AttemptRow, outcome: EventOutcome, tx: Tx): Promise<void> {
  await tx.webhookAttempt.create({ data: attempt });
  await tx.event.updateMany({
    where: { id: attempt.eventId, attempts: attempt.attempt, status: 'PENDING' },
    data:
      outcome.status === 'PENDING'
        ? { nextAttemptAt: outcome.nextAttemptAt }
        : {
            status: outcome.status,
            nextAttemptAt: null,
            ...(outcome.status === 'DELIVERED' ? { deliveredAt: outcome.deliveredAt } : {}),
          },
  });
}

/** A sandbox test send: the TEST event and its one attempt, written after the attempt ran. */
export async function insertTestEvent(
  event: {
    id: string;
    platformId: string;
    payload: string;
    createdAt: Date;
    delivered: boolean;
    traceParent: string | null;
  },
  attempt: AttemptRow,
  tx: Tx,
): Promise<void> {
  await tx.event.create({
    data: {
      id: event.id,
      platformId: event.platformId,
      type: 'TEST',
      payload: event.payload,
      createdAt: event.createdAt,
      status: event.delivered ? 'DELIVERED' : 'FAILED',
      attempts: 1,
      deliveredAt: event.delivered ? attempt.startedAt : null,
      traceParent: event.traceParent,
    },
  });
  await tx.webhookAttempt.create({ data: attempt });
}

/**
 * TEST events still waiting to be sent: moot once the endpoint they were queued for is replaced
 * (the new endpoint gets its own), so they are SKIPPED rather than sent to the new one.
 */
export async function skipPendingTests(platformId: string, tx: Tx): Promise<void> {
  await tx.event.updateMany({
    where: { platformId, type: 'TEST', status: 'PENDING' },
    data: { status: 'SKIPPED', nextAttemptAt: null },
  });
}

export function findEndpoint(platformId: string) {
  return db().platform.findUnique({ where: { id: platformId }, select: { webhookEndpoint: true } });
}

/** The kinds the endpoint receives; null: every kind (no settings row). */
export async function findEventTypes(platformId: string): Promise<string[] | null> {
  const row = await db().webhookSettings.findUnique({ where: { platformId }, select: { eventTypes: true } });
  return row?.eventTypes ?? null;
}

/** Stores the chosen kinds; null (every kind) removes the row. */
export async function saveEventTypes(platformId: string, eventTypes: string[] | null, at: Date): Promise<void> {
  if (eventTypes === null) {
    await db().webhookSettings.deleteMany({ where: { platformId } });
    return;
  }
  await db().webhookSettings.upsert({
    where: { platformId },
    create: { platformId, eventTypes, updatedAt: at },
    update: { eventTypes, updatedAt: at },
  });
}

/** Attempts of one event, oldest first (tests; the console later). */
export function attemptsOf(eventId: string) {
  return db().webhookAttempt.findMany({ where: { eventId }, orderBy: { attempt: 'asc' } });
}

export function findEvent(id: string) {
  return db().event.findUnique({ where: { id } });
}
