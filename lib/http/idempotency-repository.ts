import { db } from '../core/db';

export interface StoredIdempotency {
  requestHash: string;
  state: string;
  responseStatus: number | null;
  responseBody: string | null;
  createdAt: Date;
}

/** Inserts a PENDING claim; false when the key already has a record (then read it). */
export async function claim(
  platformId: string,
  key: string,
  requestHash: string,
  now: Date,
  expiresAt: Date,
): Promise<boolean> {
  const inserted = await db().$executeRaw`
    INSERT INTO "IdempotencyRecord" ("platformId", "key", "requestHash", "state", "createdAt", "expiresAt")
    VALUES (${platformId}, ${key}, ${requestHash}, 'PENDING', ${now}, ${expiresAt})
    ON CONFLICT ("platformId", "key") DO NOTHING`;
  return inserted === 1;
}

export function find(platformId: string, key: string): Promise<StoredIdempotency | null> {
  return db().idempotencyRecord.findUnique({
    where: { platformId_key: { platformId, key } },
    select: { requestHash: true, state: true, responseStatus: true, responseBody: true, createdAt: true },
  });
}

/** Takes over a PENDING claim left by a request that died; only one taker wins. */
export async function takeOver(platformId: string, key: string, staleBefore: Date, now: Date): Promise<boolean> {
  const n = await db().idempotencyRecord.updateMany({
    where: { platformId, key, state: 'PENDING', createdAt: { lt: staleBefore } },
    data: { createdAt: now },
  });
  return n.count === 1;
}

export async function complete(platformId: string, key: string, status: number, body: string): Promise<void> {
  await db().idempotencyRecord.update({
    where: { platformId_key: { platformId, key } },
    data: { state: 'DONE', responseStatus: status, responseBody: body },
  });
}

export async function release(platformId: string, key: string): Promise<void> {
  await db().idempotencyRecord.deleteMany({ where: { platformId, key, state: 'PENDING' } });
}

export async function purgeExpired(now: Date): Promise<number> {
  const n = await db().idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } });
  return n.count;
}
