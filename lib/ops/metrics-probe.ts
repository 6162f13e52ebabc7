import { Prisma, type Db } from '../core/db';
import type { Figures } from '../core/metrics';
import { SCRIPT_NOT_APPLIED } from '../payments/script-hold';

// The figures /metrics reads from the database when scraped (lib/core/metrics.ts): exact, and the
// same whichever process or server answers. Each is one indexed or grouped statement.
export async function readFigures(
  db: Db,
  pool: { totalCount: number; idleCount: number; waitingCount: number } | undefined,
  wallNow = new Date(),
): Promise<Figures> {
  // The pool as the scrape found it, before the statements below take connections of their own
  // (read after them, a full pool with requests waiting had always drained by then).
  const connections = pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
  const [payments, postings, jobs, oldestJob, events, oldestEvent, railWaiting, review] = await Promise.all([
    db.$queryRaw<{ type: string; status: string; count: number }[]>(
      Prisma.sql`SELECT "type", "status", count(*)::int AS count FROM "Transaction" GROUP BY "type", "status"`,
    ),
    db.$queryRaw<{ n: bigint }[]>(Prisma.sql`SELECT count(*) AS n FROM "LedgerTransfer"`),
    db.$queryRaw<{ kind: string; count: number }[]>(
      Prisma.sql`SELECT "kind", count(*)::int AS count FROM "Job"
        WHERE "state" IN ('PENDING', 'RUNNING') AND "runAt" <= ${wallNow} GROUP BY "kind"`,
    ),
    db.$queryRaw<{ at: Date | null }[]>(
      Prisma.sql`SELECT min("runAt") AS at FROM "Job" WHERE "state" IN ('PENDING', 'RUNNING') AND "runAt" <= ${wallNow}`,
    ),
    db.$queryRaw<{ status: string; count: number }[]>(
      Prisma.sql`SELECT "status", count(*)::int AS count FROM "Event" WHERE "status" <> 'DELIVERED' GROUP BY "status"`,
    ),
    db.$queryRaw<{ at: Date | null }[]>(
      Prisma.sql`SELECT min("createdAt") AS at FROM "Event" WHERE "status" = 'PENDING'`,
    ),
    // Payments the rail has not taken (none connected, or it asked to retry), by reason; refunds
    // to a payer's bank the rail has not taken too (lib/payments/rail-refund.ts); payments held for
    // staff because production applies no sandbox script (lib/payments/script-hold.ts). The console's
    // WAITING filter in the same shape: read through Transaction_rail_attention_idx.
    db.$queryRaw<{ reason: string | null; count: number }[]>(
      Prisma.sql`SELECT "railNote" AS reason, count(*)::int AS count FROM "Transaction"
        WHERE "railStatus" IN ('WAITING', 'REFUND_WAITING') AND ("railStatus" = 'REFUND_WAITING' OR "status" = 'PROCESSING')
        GROUP BY "railNote"`,
    ),
    // Verifications waiting for a person: open ones, which the partial unique index on open
    // verifications (Verification_open_customerId_key) covers.
    db.$queryRaw<{ n: bigint }[]>(
      Prisma.sql`SELECT count(*) AS n FROM "Verification" WHERE "status" = 'PENDING_MANUAL_REVIEW'`,
    ),
  ]);
  const age = (at: Date | null | undefined) => (at ? Math.max(0, (wallNow.getTime() - at.getTime()) / 1000) : 0);
  return {
    payments: payments.map((p) => ({ type: p.type, status: p.status, count: Number(p.count) })),
    ledgerPostings: Number(postings[0]?.n ?? 0),
    jobsDue: jobs.map((j) => ({ kind: j.kind, count: Number(j.count) })),
    oldestDueJobSeconds: age(oldestJob[0]?.at),
    webhookEvents: events.map((e) => ({ status: e.status, count: Number(e.count) })),
    oldestUndeliveredWebhookSeconds: age(oldestEvent[0]?.at),
    paymentsWaitingForRail: railWaiting.map((w) => ({ reason: waitingReason(w.reason), count: Number(w.count) })),
    verificationsWaitingForReview: Number(review[0]?.n ?? 0),
    pool: connections,
  };
}

/** The reason label of a payment held because production does not apply its sandbox script. */
export const SCRIPT_HELD_REASON = 'sandbox script not applied in production';

/** A waiting payment's reason as a metric label: the fixed part (a retry's note names its attempt). */
function waitingReason(note: string | null): string {
  if (!note) return 'unknown';
  // A payment held for staff (lib/payments/script-hold.ts): waiting, but on a person, not a rail.
  if (note === SCRIPT_NOT_APPLIED) return SCRIPT_HELD_REASON;
  return note.startsWith('rail asked to retry') ? 'rail asked to retry' : note;
}
