import { lockOne, Prisma, type Tx } from '../core/db';
import { deleteBatch, EVERY_ROW } from '../core/housekeeping';

// Credentials, sessions, OTP challenges, delegated keys and wallet secrets of embedded wallets.
// The wallet-auth domain owns the full lifecycle; other domains only seed the first credential
// and ask which credentials a customer's contact is tied to.
export type AuthMethodRow = Prisma.AuthMethodGetPayload<object>;
export type SessionRow = Prisma.AuthSessionGetPayload<object>;
export type OtpChallengeRow = Prisma.OtpChallengeGetPayload<object>;
export type DelegatedKeyRow = Prisma.DelegatedKeyGetPayload<object>;

/** A wallet's first credential, as a row written with the wallet's account (accounts/service.ts). */
/** Active OTP credentials of this customer's embedded wallets, of one type. */
export function activeOtpCredentialsOfCustomer(
  platformId: string,
  customerId: string,
  type: 'EMAIL_OTP' | 'SMS_OTP',
  tx: Tx,
) {
  return tx.$queryRaw<{ id: string; accountId: string }[]>`
    SELECT m."id", m."accountId" FROM "AuthMethod" m JOIN "InternalAccount" a ON a."id" = m."accountId"
    WHERE a."platformId" = ${platformId} AND a."customerId" = ${customerId} AND a."type" = 'EMBEDDED_WALLET'
      AND m."type" = ${type} AND m."revokedAt" IS NULL
    ORDER BY m."id"`;
}

// ---- credentials ----------------------------------------------------------------------------

export async function insertCredential(data: Prisma.AuthMethodUncheckedCreateInput, tx: Tx): Promise<AuthMethodRow> {
  return tx.authMethod.create({ data });
}

export function findCredential(platformId: string, id: string, tx: Tx): Promise<AuthMethodRow | null> {
  return tx.authMethod.findFirst({ where: { platformId, id, revokedAt: null } });
}

/**
 * The active PASSKEY credential with this WebAuthn credential id (base64url): how a discoverable
 * passkey's assertion, which names no credential of ours, finds its wallet.
 */
export function findPasskeyByCredentialId(
  platformId: string,
  credentialId: string,
  tx: Tx,
): Promise<AuthMethodRow | null> {
  return tx.authMethod.findFirst({ where: { platformId, credentialId, type: 'PASSKEY', revokedAt: null } });
}

/** The credential row locked, so challenges and revocations of one credential serialize. */
export async function lockCredential(platformId: string, id: string, tx: Tx): Promise<AuthMethodRow | null> {
  return lockOne<AuthMethodRow>(
    tx,
    'AuthMethod',
    Prisma.sql`"id" = ${id} AND "platformId" = ${platformId} AND "revokedAt" IS NULL`,
  );
}

/** The account's active credentials locked in id order (concurrent lockers queue, never deadlock). */
export function lockActiveCredentials(platformId: string, accountId: string, tx: Tx): Promise<AuthMethodRow[]> {
  return tx.$queryRaw<AuthMethodRow[]>`
    SELECT * FROM "AuthMethod" WHERE "platformId" = ${platformId} AND "accountId" = ${accountId} AND "revokedAt" IS NULL ORDER BY "id" FOR UPDATE`;
}

export function activeCredentials(platformId: string, accountId: string, tx: Tx): Promise<AuthMethodRow[]> {
  return tx.authMethod.findMany({
    where: { platformId, accountId, revokedAt: null },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

export async function registrationChallengeUsed(platformId: string, challengeHash: string, tx: Tx): Promise<boolean> {
  return (await tx.authMethod.count({ where: { platformId, registrationChallengeHash: challengeHash } })) > 0;
}

export async function revokeCredential(id: string, at: Date, tx: Tx): Promise<void> {
  await tx.authMethod.update({ where: { id }, data: { revokedAt: at, updatedAt: at } });
}

export async function updateCredentialContact(
  ids: string[],
  contact: { email?: string; phoneNumber?: string },
  at: Date,
  tx: Tx,
): Promise<number> {
  const data =
    contact.email !== undefined
      ? { email: contact.email, nickname: contact.email }
      : { phoneNumber: contact.phoneNumber, nickname: contact.phoneNumber };
  const n = await tx.authMethod.updateMany({
    where: { id: { in: ids }, revokedAt: null },
    data: { ...data, updatedAt: at },
  });
  return n.count;
}

export async function setSignCount(id: string, signCount: bigint, at: Date, tx: Tx): Promise<void> {
  await tx.authMethod.update({ where: { id }, data: { signCount, updatedAt: at } });
}

/** Active EMAIL_OTP credentials of the platform holding this email (case-insensitive), other than `exceptIds`. */
export function emailOtpCredentialsWithEmail(platformId: string, email: string, exceptIds: string[], tx: Tx) {
  return tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "AuthMethod" WHERE "platformId" = ${platformId} AND "type" = 'EMAIL_OTP' AND "revokedAt" IS NULL
      AND lower("email") = lower(${email}) ${exceptIds.length ? Prisma.sql`AND "id" NOT IN (${Prisma.join(exceptIds)})` : Prisma.empty}`;
}

export function smsOtpCredentialsWithPhone(platformId: string, phoneNumber: string, exceptIds: string[], tx: Tx) {
  return tx.authMethod.findMany({
    where: { platformId, type: 'SMS_OTP', revokedAt: null, phoneNumber, id: { notIn: exceptIds } },
    select: { id: true },
  });
}

// ---- sessions -------------------------------------------------------------------------------

export async function insertSession(data: SessionRow, tx: Tx): Promise<SessionRow> {
  return tx.authSession.create({ data });
}

const activeSession = (at: Date) => ({ revokedAt: null, expiresAt: { gt: at } });

/** Active sessions of an account with their credential (whose revocation ends them too). */
export function activeSessions(platformId: string, accountId: string, at: Date, tx: Tx) {
  return tx.$queryRaw<
    (SessionRow & { type: string; nickname: string | null; email: string | null; phoneNumber: string | null })[]
  >`
    SELECT s.*, m."type", m."nickname", m."email", m."phoneNumber" FROM "AuthSession" s JOIN "AuthMethod" m ON m."id" = s."authMethodId"
    WHERE s."platformId" = ${platformId} AND s."accountId" = ${accountId} AND s."revokedAt" IS NULL AND s."expiresAt" > ${at}
      AND m."revokedAt" IS NULL
    ORDER BY s."createdAt", s."id"`;
}

/** Active sessions on any of `accountIds` whose key is `publicKey` (compressed hex). */
export function activeSessionsWithKey(
  platformId: string,
  accountIds: string[],
  publicKey: string | null,
  at: Date,
  tx: Tx,
) {
  return tx.$queryRaw<SessionRow[]>`
    SELECT s.* FROM "AuthSession" s JOIN "AuthMethod" m ON m."id" = s."authMethodId"
    WHERE s."platformId" = ${platformId} AND s."accountId" IN (${Prisma.join(accountIds)}) AND s."revokedAt" IS NULL
      AND s."expiresAt" > ${at} AND m."revokedAt" IS NULL
      ${publicKey ? Prisma.sql`AND s."publicKey" = ${publicKey}` : Prisma.empty}
    ORDER BY s."createdAt", s."id"`;
}

export function findSession(platformId: string, id: string, tx: Tx): Promise<SessionRow | null> {
  return tx.authSession.findFirst({ where: { platformId, id } });
}

export function findActiveSession(platformId: string, id: string, at: Date, tx: Tx): Promise<SessionRow | null> {
  return tx.authSession.findFirst({ where: { platformId, id, ...activeSession(at) } });
}

export async function revokeSession(id: string, at: Date, tx: Tx): Promise<boolean> {
  const n = await tx.authSession.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at, updatedAt: at } });
  return n.count === 1;
}

export async function revokeSessionsOfCredential(authMethodId: string, at: Date, tx: Tx): Promise<number> {
  const n = await tx.authSession.updateMany({
    where: { authMethodId, revokedAt: null },
    data: { revokedAt: at, updatedAt: at },
  });
  return n.count;
}

// ---- OTP challenges -------------------------------------------------------------------------

export async function insertOtpChallenge(data: Omit<OtpChallengeRow, 'consumedAt'>, tx: Tx): Promise<void> {
  await tx.otpChallenge.create({ data });
}

export function latestOtpChallenge(authMethodId: string, tx: Tx): Promise<OtpChallengeRow | null> {
  return tx.otpChallenge.findFirst({ where: { authMethodId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

export async function consumeOtpChallenge(id: string, at: Date, tx: Tx): Promise<boolean> {
  const n = await tx.otpChallenge.updateMany({ where: { id, consumedAt: null }, data: { consumedAt: at } });
  return n.count === 1;
}

/** Closes every open challenge of a credential (a re-issue supersedes them; revocation ends them). */
export async function closeOtpChallenges(authMethodId: string, at: Date, tx: Tx): Promise<void> {
  await tx.otpChallenge.updateMany({ where: { authMethodId, consumedAt: null }, data: { consumedAt: at } });
}

// ---- delegated keys -------------------------------------------------------------------------

export async function insertDelegatedKey(data: DelegatedKeyRow, tx: Tx): Promise<DelegatedKeyRow> {
  return tx.delegatedKey.create({ data });
}

export function findDelegatedKey(platformId: string, id: string, tx: Tx): Promise<DelegatedKeyRow | null> {
  return tx.delegatedKey.findFirst({ where: { platformId, id } });
}

export function activeDelegatedKeyFor(platformId: string, fundingSourceId: string, tx: Tx) {
  return tx.delegatedKey.findFirst({ where: { platformId, fundingSourceId, status: 'ACTIVE' } });
}

export function listDelegatedKeys(platformId: string, f: { accountId?: string; fundingSourceId?: string }, tx: Tx) {
  return tx.delegatedKey.findMany({
    where: {
      platformId,
      ...(f.accountId ? { accountId: f.accountId } : {}),
      ...(f.fundingSourceId ? { fundingSourceId: f.fundingSourceId } : {}),
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** A conditional transition; false when the key was not in `from`. */
export async function setDelegatedKeyStatus(
  id: string,
  from: string,
  to: string,
  at: Date,
  tx: Tx,
  data: { secretKeySealed?: string | null } = {},
): Promise<boolean> {
  const n = await tx.delegatedKey.updateMany({
    where: { id, status: from },
    data: { status: to, updatedAt: at, ...data },
  });
  return n.count === 1;
}

// ---- wallet secrets -------------------------------------------------------------------------

export function findWalletSecret(accountId: string, tx: Tx) {
  return tx.embeddedWalletSecret.findUnique({ where: { accountId } });
}

export async function insertWalletSecret(
  data: { accountId: string; platformId: string; seedSealed: string; createdAt: Date },
  tx: Tx,
): Promise<void> {
  await tx.embeddedWalletSecret.create({ data });
}

/** OTP challenges that expired before `before`: their codes can no longer be used. */
export function purgeExpiredOtp(before: Date, limit = EVERY_ROW): Promise<number> {
  return deleteBatch('OtpChallenge', Prisma.sql`"expiresAt" < ${before}`, limit);
}
