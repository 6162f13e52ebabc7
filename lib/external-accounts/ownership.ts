import { randomBytes } from 'node:crypto';
import { newId } from '../core/ids';
import { addSeconds, now } from '../core/clock';
import { transaction, type Tx, db } from '../core/db';
import { DomainError, conflict, fieldError, invalidInput, notFound } from '../core/errors';
import { enqueue } from '../jobs/queue';
import { ownershipProvider, type LivenessSession } from './rails';
import { isSelfCustodyWallet, type AccountInfo } from './rules';
import { OWNERSHIP_OPEN, present, transition, type ExternalAccount } from './status';
import * as repo from './repository';

// Ownership verification of FIRST_PARTY self-custody wallets (Travel Rule). WALLET_SIGNATURE: the
// wallet signs our exact message and the verify call checks it synchronously. LIVENESS: a hosted
// biometric check whose outcome arrives later (in sandbox: a job that passes it after a delay).
// A new challenge abandons the previous one; a failure makes the account UNVERIFIED, a later
// success makes it ACTIVE.
export const SANDBOX_LIVENESS_JOB = 'external-accounts.sandbox-liveness';
const SIGNATURE_TTL_SECONDS = 10 * 60;
const LIVENESS_TTL_SECONDS = 60 * 60;

export type OwnershipChallenge =
  | { method: 'WALLET_SIGNATURE'; messageToSign: string; expiresAt: Date }
  | { method: 'LIVENESS'; verificationLink: string; token?: string; expiresAt: Date };

function checkApplicable(row: repo.ExternalAccountRow) {
  const info = row.accountInfo as AccountInfo;
  if (!isSelfCustodyWallet(info) || row.ownershipType !== 'FIRST_PARTY') {
    throw conflict('Ownership verification applies only to FIRST_PARTY self-custody crypto wallets (no vaspName)');
  }
  if (!OWNERSHIP_OPEN.includes(row.status as (typeof OWNERSHIP_OPEN)[number])) {
    throw new DomainError(
      'INVALID_STATE_TRANSITION',
      `External account ${row.id} is ${row.status}: ownership verification is open only in ${OWNERSHIP_OPEN.join(' or ')}`,
    );
  }
}

export async function startChallenge(
  platformId: string,
  id: string,
  owner: repo.Owner,
  method: 'WALLET_SIGNATURE' | 'LIVENESS',
): Promise<OwnershipChallenge> {
  const row = await repo.findLive(platformId, id, owner, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `External account ${id}`);
  checkApplicable(row);
  const challengeId = newId('Challenge');
  const at = now();
  let liveness: LivenessSession | null = null;
  if (method === 'LIVENESS') {
    liveness = await ownershipProvider.get().startLiveness({ challengeId, externalAccountId: id });
    if (!liveness)
      throw fieldError(
        'method',
        'LIVENESS is not available on this installation (no liveness provider is connected); use WALLET_SIGNATURE',
        { enum: ['WALLET_SIGNATURE'] },
      );
  }
  const expiresAt = addSeconds(at, method === 'LIVENESS' ? LIVENESS_TTL_SECONDS : SIGNATURE_TTL_SECONDS);
  const info = row.accountInfo as AccountInfo;
  const messageToSign =
    method === 'WALLET_SIGNATURE'
      ? [
          'Corridor wallet ownership verification',
          `Account: ${id}`,
          `Wallet: ${String(info.address)}`,
          `Nonce: ${randomBytes(16).toString('hex')}`,
          `Expires: ${expiresAt.toISOString()}`,
        ].join('\n')
      : null;
  await transaction(async (tx) => {
    const locked = await repo.lockLive(platformId, id, owner, tx);
    if (!locked) throw notFound('REFERENCE_NOT_FOUND', `External account ${id}`);
    checkApplicable(locked);
    await repo.abandonPendingOwnership(id, at, tx);
    await repo.insertOwnershipChallenge(
      {
        id: challengeId,
        platformId,
        externalAccountId: id,
        method,
        state: 'PENDING',
        messageToSign,
        verificationLink: liveness?.verificationLink ?? null,
        expiresAt,
        createdAt: at,
      },
      tx,
    );
    if (liveness?.simulated) {
      await enqueue(tx, {
        platformId,
        kind: SANDBOX_LIVENESS_JOB,
        payload: { challengeId, passed: liveness.simulated.passed },
        runAt: addSeconds(at, liveness.simulated.afterSeconds),
      });
    }
  });
  return messageToSign
    ? { method: 'WALLET_SIGNATURE', messageToSign, expiresAt }
    : {
        method: 'LIVENESS',
        verificationLink: liveness!.verificationLink,
        ...(liveness!.token ? { token: liveness!.token } : {}),
        expiresAt,
      };
}

/** Ends a pending challenge and moves the account; the caller's transaction is the one given. */
async function settle(platformId: string, challenge: repo.OwnershipChallengeRow, passed: boolean, at: Date, tx: Tx) {
  if (!(await repo.completeOwnership(challenge.id, passed ? 'SUCCEEDED' : 'FAILED', at, tx))) return null;
  return passed
    ? transition(tx, platformId, challenge.externalAccountId, OWNERSHIP_OPEN, 'ACTIVE', at)
    : transition(tx, platformId, challenge.externalAccountId, ['PENDING_OWNERSHIP_VERIFICATION'], 'UNVERIFIED', at);
}

export async function verifySignature(
  platformId: string,
  id: string,
  owner: repo.Owner,
  body: { signature: string; signatureScheme: string },
): Promise<ExternalAccount> {
  const row = await repo.findLive(platformId, id, owner, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `External account ${id}`);
  const challenge = await repo.pendingOwnership(id, db());
  if (!challenge || challenge.method !== 'WALLET_SIGNATURE') {
    throw conflict(
      `No WALLET_SIGNATURE challenge is outstanding for external account ${id}: start a new ownership challenge`,
    );
  }
  const at = now();
  const expired = challenge.expiresAt.getTime() <= at.getTime();
  const info = row.accountInfo as AccountInfo;
  const valid =
    !expired &&
    ownershipProvider.get().verifySignature({
      accountType: row.accountType,
      address: String(info.address),
      message: challenge.messageToSign!,
      signature: body.signature,
      scheme: body.signatureScheme,
    });
  const account = await transaction(async (tx) => {
    const locked = await repo.lockLive(platformId, id, owner, tx);
    if (!locked) throw notFound('REFERENCE_NOT_FOUND', `External account ${id}`);
    const pending = await repo.pendingOwnership(id, tx);
    if (pending?.id !== challenge.id)
      throw conflict('The challenge was completed or replaced by another request; start a new one');
    return (
      (await settle(platformId, challenge, valid, at, tx)) ?? present((await repo.findLive(platformId, id, owner, tx))!)
    );
  });
  if (!valid) {
    const message = expired
      ? 'The challenge expired before the signature arrived; the account is UNVERIFIED: start a new challenge'
      : "The signature is not the wallet's signature of messageToSign; the account is UNVERIFIED: start a new challenge to retry";
    throw invalidInput(message, [
      { field: 'signature', message: expired ? 'challenge expired' : 'does not verify against the wallet address' },
    ]);
  }
  return account;
}

/** A LIVENESS challenge as the sandbox liveness page shows it; null when there is no such challenge. */
export async function livenessChallenge(challengeId: string) {
  const c = await repo.findOwnershipChallenge(challengeId, db());
  if (!c || c.method !== 'LIVENESS') return null;
  return { platformId: c.platformId, externalAccountId: c.externalAccountId, state: c.state, expiresAt: c.expiresAt };
}

/** The sandbox liveness outcome (job); a challenge replaced or ended meanwhile is left alone. */
export async function completeLiveness(platformId: string, challengeId: string, passed: boolean): Promise<void> {
  await transaction(async (tx) => {
    const challenge = await repo.findOwnershipChallenge(challengeId, tx);
    if (!challenge || challenge.state !== 'PENDING') return;
    const locked = await repo.lockLive(platformId, challenge.externalAccountId, { kind: 'any' }, tx);
    if (!locked) return;
    await settle(platformId, challenge, passed, now(), tx);
  });
}
