import { lockOne, Prisma, type Tx } from '../core/db';
import { deleteBatch, EVERY_ROW } from '../core/housekeeping';

// Pending signed requests (lib/wallet-auth/signed-retry.ts).
export type SignedRequestRow = Prisma.SignedRequestGetPayload<object>;

export async function insert(data: Prisma.SignedRequestUncheckedCreateInput, tx: Tx): Promise<void> {
  await tx.signedRequest.create({ data });
}

/** Inserts a request already spent; false when one with its id exists (a second answer). */
export async function insertSpent(data: Prisma.SignedRequestCreateManyInput, tx: Tx): Promise<boolean> {
  const n = await tx.signedRequest.createMany({ data: [data], skipDuplicates: true });
  return n.count === 1;
}

/** The pending request locked: two retries racing with one Request-Id serialize here. */
export async function lock(platformId: string, id: string, tx: Tx): Promise<SignedRequestRow | null> {
  return lockOne<SignedRequestRow>(tx, 'SignedRequest', Prisma.sql`"id" = ${id} AND "platformId" = ${platformId}`);
}

export async function consume(id: string, at: Date, tx: Tx): Promise<boolean> {
  const n = await tx.signedRequest.updateMany({ where: { id, consumedAt: null }, data: { consumedAt: at } });
  return n.count === 1;
}

export function find(platformId: string, id: string, tx: Tx) {
  return tx.signedRequest.findFirst({ where: { platformId, id } });
}

/** Signed-retry challenges that expired before `before` (a spent or lapsed requestId is refused either way). */
export function purgeExpired(before: Date, limit = EVERY_ROW): Promise<number> {
  return deleteBatch('SignedRequest', Prisma.sql`"expiresAt" < ${before}`, limit);
}
