import { hostname } from 'node:os';
import { Prisma, type Db } from '../core/db';
import { deleteBatch, EVERY_ROW } from '../core/housekeeping';

// Worker heartbeats: each process whose worker runs says when it last ticked, keyed by its
// instance key (lib/core/instance.ts). Wall-clock times: readiness is about the machines, not
// about any platform's sandbox clock.
const BEAT_EVERY_MS = 5_000;
/** A worker whose last beat is older than this is taken for stopped. */
export const HEARTBEAT_STALE_MS = 30_000;

let lastBeat = 0;

/** Records this process's worker as alive (at most every few seconds; cheap to call every tick). */
export async function beat(db: Db, instanceKey: number, at = new Date()): Promise<void> {
  if (at.getTime() - lastBeat < BEAT_EVERY_MS) return;
  lastBeat = at.getTime();
  await db.workerHeartbeat.upsert({
    where: { instanceKey },
    create: { instanceKey, host: hostname(), pid: process.pid, beatAt: at },
    update: { beatAt: at, host: hostname(), pid: process.pid },
  });
}

/** The newest heartbeat of any worker, or null when none ever beat. */
export async function newestBeat(db: Db): Promise<{ beatAt: Date; host: string; pid: number } | null> {
  return db.workerHeartbeat.findFirst({ orderBy: { beatAt: 'desc' }, select: { beatAt: true, host: true, pid: true } });
}

/** Heartbeats of processes quiet for a day (housekeeping). */
export function pruneHeartbeats(wallNow: Date, limit = EVERY_ROW): Promise<number> {
  return deleteBatch('WorkerHeartbeat', Prisma.sql`"beatAt" < ${new Date(wallNow.getTime() - 24 * 3600_000)}`, limit);
}
