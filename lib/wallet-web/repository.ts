import { Prisma, db } from '../core/db';

// Browsers signed in to the /wallet pages (WalletWebSession), found by their cookie token's hash.
export type WebSessionRow = Prisma.WalletWebSessionGetPayload<object>;

export function insert(row: WebSessionRow): Promise<WebSessionRow> {
  return db().walletWebSession.create({ data: row });
}

export function find(id: string): Promise<WebSessionRow | null> {
  return db().walletWebSession.findUnique({ where: { id } });
}

export async function revoke(id: string, at: Date): Promise<void> {
  await db().walletWebSession.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
}

export async function setRegistrationChallenge(id: string, challenge: string | null): Promise<void> {
  await db().walletWebSession.update({ where: { id }, data: { registrationChallenge: challenge } });
}
