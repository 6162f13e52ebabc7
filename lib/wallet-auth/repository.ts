import { db, type Tx } from '../db';

// Credentials of embedded wallets. The wallet-auth domain owns the full lifecycle; other domains
// only need to seed the first credential and ask which credentials a customer's email is tied to.
export async function insertEmailOtp(
  row: { id: string; platformId: string; accountId: string; email: string; createdAt: Date },
  tx: Tx,
): Promise<void> {
  await tx.authMethod.create({ data: { ...row, type: 'EMAIL_OTP', nickname: row.email, updatedAt: row.createdAt } });
}

/** Active OTP credentials of this customer's embedded wallets, of one type. */
export function activeOtpCredentialsOfCustomer(platformId: string, customerId: string, type: 'EMAIL_OTP' | 'SMS_OTP', tx: Tx = db()) {
  return tx.$queryRaw<{ id: string; accountId: string }[]>`
    SELECT m."id", m."accountId" FROM "AuthMethod" m JOIN "InternalAccount" a ON a."id" = m."accountId"
    WHERE a."platformId" = ${platformId} AND a."customerId" = ${customerId} AND a."type" = 'EMBEDDED_WALLET'
      AND m."type" = ${type} AND m."revokedAt" IS NULL
    ORDER BY m."id"`;
}
