import type { Challenge } from './signed-retry';
import type { AuthMethodRow, DelegatedKeyRow, SessionRow } from './repository';
import type { CredentialType } from './schema';

// How credentials, sessions and delegated keys appear in responses.
export function toAuthMethod(row: AuthMethodRow, extra: { otpEncryptionTargetBundle?: string } = {}) {
  return {
    id: row.id,
    accountId: row.accountId,
    type: row.type as CredentialType,
    ...(row.type === 'PASSKEY' && row.credentialId ? { credentialId: row.credentialId } : {}),
    nickname: row.nickname ?? row.email ?? row.phoneNumber ?? row.type,
    ...(extra.otpEncryptionTargetBundle ? { otpEncryptionTargetBundle: extra.otpEncryptionTargetBundle } : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type AuthMethod = ReturnType<typeof toAuthMethod>;

/** A session shows its credential's type and nickname; the legacy flow adds the sealed key. */
export function toSession(
  session: SessionRow,
  credential: Pick<AuthMethodRow, 'type' | 'nickname' | 'email' | 'phoneNumber'>,
  encryptedSessionSigningKey?: string,
) {
  return {
    id: session.id,
    accountId: session.accountId,
    type: credential.type as CredentialType,
    nickname: credential.nickname ?? credential.email ?? credential.phoneNumber ?? credential.type,
    ...(encryptedSessionSigningKey ? { encryptedSessionSigningKey } : {}),
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    expiresAt: session.expiresAt,
  };
}
export type AuthSession = ReturnType<typeof toSession>;

export function toDelegatedKey(row: DelegatedKeyRow) {
  return {
    id: row.id,
    cardId: row.cardId,
    fundingSourceId: row.fundingSourceId,
    accountId: row.accountId,
    publicKey: row.publicKey,
    nickname: row.nickname,
    status: row.status as 'PENDING' | 'ACTIVE' | 'REVOKED',
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function isChallenge(x: unknown): x is Challenge {
  return !!x && typeof x === 'object' && 'payloadToSign' in x && 'requestId' in x;
}
