import { db, lockOne, Prisma, type Tx } from '../core/db';

export type Channel = 'EMAIL' | 'PHONE';
export type CodeRow = Prisma.ContactVerificationCodeGetPayload<object>;

export async function insert(
  row: {
    id: string;
    platformId: string;
    customerId: string;
    channel: Channel;
    targetHash: string;
    codeHash: string;
    createdAt: Date;
    expiresAt: Date;
  },
  tx: Tx,
): Promise<void> {
  await tx.contactVerificationCode.create({ data: row });
}

/** Retires the live code of this channel, if any (a new one is about to be sent). */
export async function supersedeActive(customerId: string, channel: Channel, tx: Tx): Promise<void> {
  await tx.contactVerificationCode.updateMany({
    where: { customerId, channel, state: 'ACTIVE' },
    data: { state: 'SUPERSEDED' },
  });
}

/** Codes sent on this channel since `since`, oldest first (for the resend limits). */
export function sentSince(customerId: string, channel: Channel, since: Date, tx: Tx) {
  return tx.contactVerificationCode.findMany({
    where: { customerId, channel, createdAt: { gte: since } },
    orderBy: { createdAt: 'asc' },
    select: { createdAt: true, targetHash: true },
  });
}

export function findActive(customerId: string, channel: Channel, tx: Tx = db()): Promise<CodeRow | null> {
  return tx.contactVerificationCode.findFirst({ where: { customerId, channel, state: 'ACTIVE' } });
}

export async function lock(id: string, tx: Tx): Promise<CodeRow | null> {
  return lockOne<CodeRow>(tx, 'ContactVerificationCode', Prisma.sql`"id" = ${id}`);
}

export async function recordWrongAttempt(id: string, attempts: number, exhausted: boolean, tx: Tx): Promise<void> {
  await tx.contactVerificationCode.update({
    where: { id },
    data: { attempts, ...(exhausted ? { state: 'EXHAUSTED' } : {}) },
  });
}

export async function markUsed(id: string, at: Date, tx: Tx): Promise<void> {
  await tx.contactVerificationCode.update({ where: { id }, data: { state: 'USED', usedAt: at } });
}

/** Removes a code that could not be delivered, so it neither works nor counts against resends. */
export async function discard(id: string): Promise<void> {
  await db().contactVerificationCode.deleteMany({ where: { id, state: 'ACTIVE' } });
}

/** Contact verification codes that expired before `before`. */
export async function purgeExpired(before: Date): Promise<number> {
  return (await db().contactVerificationCode.deleteMany({ where: { expiresAt: { lt: before } } })).count;
}
