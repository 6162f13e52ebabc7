import { addSeconds, now } from '../core/clock';
import { db, type Tx } from '../core/db';
import { DomainError, fieldError, notFound } from '../core/errors';
import { newId } from '../core/ids';
import { encryptCredentialBundle } from '../core/crypto/hpke';
import { generateKeyPair, parsePublicKey } from '../core/crypto/p256';
import { retryHeaders, signedAction, type Challenge, type CredentialType, type SignedRequest } from './signed-retry';
import { toSession, type AuthSession } from './presenter';
import * as repo from './repository';

// Sessions: a session is the public half of a signing key the client holds, valid on its account
// until expiresAt or revocation. Client-held keys (a compressed clientPublicKey, or the OTP TEK)
// never leave the client; in the legacy flow (an uncompressed clientPublicKey) the service
// generates the key, seals its private half to the client's key and forgets it.
export const SESSION_TTL_SECONDS = 15 * 60;

export interface SessionKey {
  publicKey: string;
  encryptedSessionSigningKey?: string;
}

/** The session key a client's public key selects. Prepare it before the transaction (HPKE is async work). */
export async function sessionKeyFor(clientPublicKey: string, field = 'clientPublicKey'): Promise<SessionKey> {
  const client = parsePublicKey(clientPublicKey);
  if (!client)
    throw fieldError(field, `${field} is not a point on P-256`, {
      pattern: '^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$',
    });
  if (client.encoding === 'compressed') return { publicKey: client.compressedHex };
  const pair = generateKeyPair();
  try {
    return {
      publicKey: pair.publicKey.compressedHex,
      encryptedSessionSigningKey: await encryptCredentialBundle(pair.secretKey, client),
    };
  } finally {
    pair.secretKey.fill(0);
  }
}

export async function openSession(tx: Tx, credential: repo.AuthMethodRow, key: SessionKey): Promise<AuthSession> {
  const at = now();
  const row = await repo.insertSession(
    {
      id: newId('Session'),
      platformId: credential.platformId,
      accountId: credential.accountId,
      authMethodId: credential.id,
      publicKey: key.publicKey,
      createdAt: at,
      updatedAt: at,
      expiresAt: addSeconds(at, SESSION_TTL_SECONDS),
      revokedAt: null,
    },
    tx,
  );
  return toSession(row, credential, key.encryptedSessionSigningKey);
}

export async function list(platformId: string, accountId: string): Promise<{ data: AuthSession[] }> {
  const rows = await repo.activeSessions(platformId, accountId, now(), db());
  return { data: rows.map((r) => toSession(r, r)) };
}

async function sessionWithCredential(platformId: string, id: string, tx: Tx) {
  const session = await repo.findSession(platformId, id, tx);
  const credential = session ? await repo.findCredential(platformId, session.authMethodId, tx) : null;
  return session && credential ? { session, credential } : null;
}

const isActive = (s: repo.SessionRow, at: Date) => !s.revokedAt && s.expiresAt > at;

/** DELETE /auth/sessions/{id}: any active session of the account may sign, the revoked one included (logout). */
export async function revoke(platformId: string, id: string, request: SignedRequest): Promise<Challenge | null> {
  const found = await sessionWithCredential(platformId, id, db());
  if (!found || !isActive(found.session, now())) throw notFound('REFERENCE_NOT_FOUND', `Active session ${id}`);
  return signedAction(
    request,
    {
      platformId,
      kind: 'AUTH_SESSION_REVOKE',
      accountIds: [found.session.accountId],
      type: found.credential.type as CredentialType,
      activity: {
        type: 'ACTIVITY_TYPE_DELETE_API_KEYS',
        parameters: { sessionId: id, userId: found.session.accountId },
      },
    },
    async (tx) => {
      if (!(await repo.revokeSession(id, now(), tx))) throw notFound('REFERENCE_NOT_FOUND', `Active session ${id}`);
      return null;
    },
  );
}

/** POST /auth/sessions/{id}/refresh: the session being refreshed signs for its successor. */
export async function refresh(
  platformId: string,
  id: string,
  clientPublicKey: string,
  request: SignedRequest,
): Promise<Challenge | AuthSession> {
  const found = await sessionWithCredential(platformId, id, db());
  if (!found) throw notFound('REFERENCE_NOT_FOUND', `Session ${id}`);
  const inactive = () =>
    new DomainError('UNAUTHORIZED', `Session ${id} is no longer active; authenticate again with the credential`, {
      reason: 'Session is no longer active',
    });
  if (!isActive(found.session, now())) throw inactive();
  if (!parsePublicKey(clientPublicKey)) throw fieldError('clientPublicKey', 'clientPublicKey is not a point on P-256');
  // The session key is prepared before the transaction (HPKE work), only for the signed retry.
  const key = retryHeaders(request) ? await sessionKeyFor(clientPublicKey) : null;
  return signedAction(
    request,
    {
      platformId,
      kind: 'AUTH_SESSION_REFRESH',
      accountIds: [found.session.accountId],
      signer: { sessionId: id },
      activity: {
        type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
        parameters: { targetPublicKey: clientPublicKey, expirationSeconds: String(SESSION_TTL_SECONDS) },
      },
    },
    async (tx) => {
      // Checked after the signature so a retry on an expired session says what happened.
      const current = await repo.findActiveSession(platformId, id, now(), tx);
      const credential = await repo.lockCredential(platformId, found.credential.id, tx);
      if (!current || !credential) throw inactive();
      return openSession(tx, credential, key!);
    },
  );
}
