import { now } from '../core/clock';
import { db, isUniqueViolation, transaction, type Tx } from '../core/db';
import { conflict, invalidInput, notFound } from '../core/errors';
import { newId } from '../core/ids';

import { generateKeyPair, publicKeyOf } from '../core/crypto/p256';
import {
  acceptSignedRetry,
  bindRequest,
  issueChallenge,
  retryHeaders,
  type Challenge,
  type SignedRequest,
} from './signed-retry';
import { seal } from '../core/crypto/vault';
import { walletAccount } from './accounts';
import { toDelegatedKey } from './presenter';
import * as repo from './repository';
import type { DelegatedKeyCreate } from './schema';

// Delegated signing keys: a service-custodied P-256 key that signs for one card funding source's
// embedded wallet in place of a session key. Creation is a three-leg signed retry, all legs with
// the same body: (1) the key pair is generated and its public key bound into the first payload;
// (2) the wallet holder's signature creates the key as PENDING (a signer with no authority) and a
// second payload asks for its policy; (3) the second signature makes it ACTIVE. The private half
// is sealed at rest and erased on revocation.

/**
 * Which card funding source binds a card to an embedded wallet is the cards domain's knowledge;
 * it registers this lookup. Until it does, no card has a funding source (404).
 */
export type FundingSourceLookup = (
  platformId: string,
  cardId: string,
  internalAccountId: string,
  tx: Tx,
) => Promise<{ fundingSourceId: string } | null>;
let lookupFundingSource: FundingSourceLookup = async () => null;
export function registerFundingSourceLookup(lookup: FundingSourceLookup): void {
  lookupFundingSource = lookup;
}

export const keyPurpose = (id: string) => `delegated-key:${id}`;
const activeExists = (fundingSourceId: string) =>
  conflict(
    `An ACTIVE delegated key already exists for funding source ${fundingSourceId}; revoke it before creating another`,
    { fundingSourceId },
  );

export async function create(platformId: string, body: DelegatedKeyCreate, request: SignedRequest) {
  const account = await walletAccount(platformId, body.internalAccountId, db(), 'internalAccountId');
  const source = await lookupFundingSource(platformId, body.cardId, account.id, db());
  if (!source) throw notFound('REFERENCE_NOT_FOUND', `Card ${body.cardId} funded by internal account ${account.id}`);
  if (await repo.activeDelegatedKeyFor(platformId, source.fundingSourceId, db()))
    throw activeExists(source.fundingSourceId);
  const binding = bindRequest(request);
  const headers = retryHeaders(request);
  const base = { platformId, binding, accountIds: [account.id] };
  try {
    return await transaction(async (tx): Promise<Challenge | ReturnType<typeof toDelegatedKey>> => {
      if (!headers) {
        const pair = generateKeyPair();
        const challenge = await issueChallenge(tx, {
          ...base,
          kind: 'DELEGATED_KEY_CREATE',
          activity: {
            type: 'ACTIVITY_TYPE_CREATE_USERS_V3',
            parameters: {
              apiKeys: [
                { apiKeyName: body.nickname, publicKey: pair.publicKey.compressedHex, curveType: 'API_KEY_CURVE_P256' },
              ],
              userId: account.id,
            },
          },
          secret: pair.secretKey,
        });
        pair.secretKey.fill(0);
        return challenge;
      }
      const signed = await acceptSignedRetry(tx, {
        platformId,
        kind: ['DELEGATED_KEY_CREATE', 'DELEGATED_KEY_POLICY'],
        binding,
        headers,
      });
      const at = now();
      if (signed.kind === 'DELEGATED_KEY_CREATE')
        return pendingKey(tx, base, { body, fundingSourceId: source.fundingSourceId, secret: signed.secret(), at });
      const id = String(signed.context.delegatedKeyId);
      if (await repo.activeDelegatedKeyFor(platformId, source.fundingSourceId, tx))
        throw activeExists(source.fundingSourceId);
      if (!(await repo.setDelegatedKeyStatus(id, 'PENDING', 'ACTIVE', at, tx)))
        throw conflict(`Delegated key ${id} is no longer PENDING`);
      return toDelegatedKey((await repo.findDelegatedKey(platformId, id, tx))!);
    });
  } catch (err) {
    // Two flows racing to activate keys for one funding source: the partial unique index decides.
    if (isUniqueViolation(err)) throw activeExists(source.fundingSourceId);
    throw err;
  }
}

/**
 * The signed first step: the key is stored PENDING (its secret sealed), and the wallet is asked to
 * sign the policy that activates it.
 */
async function pendingKey(
  tx: Tx,
  base: { platformId: string; binding: ReturnType<typeof bindRequest>; accountIds: string[] },
  key: { body: DelegatedKeyCreate; fundingSourceId: string; secret: Uint8Array; at: Date },
) {
  const id = newId('DelegatedKey');
  const accountId = base.accountIds[0];
  await repo.insertDelegatedKey(
    {
      id,
      platformId: base.platformId,
      accountId,
      cardId: key.body.cardId,
      fundingSourceId: key.fundingSourceId,
      nickname: key.body.nickname,
      publicKey: publicKeyOf(key.secret).compressedHex,
      secretKeySealed: seal(key.secret, keyPurpose(id)),
      status: 'PENDING',
      createdAt: key.at,
      updatedAt: key.at,
    },
    tx,
  );
  key.secret.fill(0);
  return issueChallenge(tx, {
    ...base,
    kind: 'DELEGATED_KEY_POLICY',
    context: { delegatedKeyId: id },
    activity: {
      type: 'ACTIVITY_TYPE_CREATE_POLICIES',
      parameters: {
        delegatedKeyId: id,
        effect: 'EFFECT_ALLOW',
        scope: 'SIGN_RAW_PAYLOAD_AND_SELF_REVOKE',
        walletId: accountId,
      },
    },
  });
}

export async function list(platformId: string, filter: { accountId?: string; fundingSourceId?: string }) {
  return { data: (await repo.listDelegatedKeys(platformId, filter, db())).map(toDelegatedKey) };
}

export async function get(platformId: string, id: string) {
  const row = await repo.findDelegatedKey(platformId, id, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Delegated key ${id}`);
  return toDelegatedKey(row);
}

/** DELETE /auth/delegated-keys/{id}: ACTIVE → REVOKED; the sealed private key is erased. */
export async function revoke(platformId: string, id: string): Promise<void> {
  const row = await repo.findDelegatedKey(platformId, id, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Delegated key ${id}`);
  // One conditional UPDATE: it needs no transaction of its own.
  if (!(await repo.setDelegatedKeyStatus(id, 'ACTIVE', 'REVOKED', now(), db(), { secretKeySealed: null }))) {
    throw invalidInput(`Delegated key ${id} is ${row.status}; only an ACTIVE key can be revoked`, [
      { field: 'id', message: 'must be an ACTIVE delegated key' },
    ]);
  }
}
