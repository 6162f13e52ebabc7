import { log } from '../core/log';
import { Prisma, queryDirect } from '../core/db';
import { drain } from '../core/housekeeping';

// Events (the webhook outbox) and their delivery attempts are history once settled: delivered,
// skipped (no endpoint) or failed for good. They are kept CORRIDOR_EVENT_RETENTION_DAYS days (90
// unless set; "never" keeps them) and then removed with their attempts, a batch at a time so a
// pass never holds locks long. A PENDING event is never removed, whatever its age, and the floor
// of 8 days outlives the 7-day retry window. (docs-draft/lists.md: retention and growth.)
const DEFAULT_DAYS = 90;
const MIN_DAYS = 8;
const BATCH = 5000;
const DAY_MS = 24 * 3600_000;

/** Days to keep settled events, or null to keep them for ever. */
export function eventRetentionDays(env: Record<string, string | undefined> = process.env): number | null {
  const v = env.CORRIDOR_EVENT_RETENTION_DAYS?.trim();
  if (!v) return DEFAULT_DAYS;
  if (v.toLowerCase() === 'never') return null;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) {
    log().warn(`CORRIDOR_EVENT_RETENTION_DAYS=${v} is not a number of days; keeping ${DEFAULT_DAYS}`);
    return DEFAULT_DAYS;
  }
  return Math.max(MIN_DAYS, n);
}

/**
 * Removes at most `limit` settled events older than the retention, with their attempts; returns
 * how many events. The worker runs it as a paced pass (lib/core/housekeeping.ts). Events another
 * process is removing at the same moment are skipped, not waited for.
 */
export async function pruneEventsBatch(wallNow: Date, limit: number, days = eventRetentionDays()): Promise<number> {
  if (days === null) return 0;
  const cutoff = new Date(wallNow.getTime() - days * DAY_MS);
  // The BRIN index on createdAt finds the old ones without a scan of the table.
  const rows = await queryDirect<{ n: number }>(Prisma.sql`
    WITH gone AS (
      DELETE FROM "Event" WHERE "id" IN (
        SELECT "id" FROM "Event" WHERE "createdAt" < ${cutoff} AND "status" <> 'PENDING'
        LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING "id"),
    attempts AS (DELETE FROM "WebhookAttempt" WHERE "eventId" IN (SELECT "id" FROM gone))
    SELECT count(*)::int AS n FROM gone`);
  return Number(rows[0]?.n ?? 0);
}

/** Removes every settled event older than the retention, batch after batch, unpaced; returns how many. */
export function pruneEvents(wallNow: Date, days = eventRetentionDays()): Promise<number> {
  return drain((limit) => pruneEventsBatch(wallNow, limit, days), BATCH);
}
