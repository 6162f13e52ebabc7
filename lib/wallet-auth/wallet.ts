import { randomBytes } from 'node:crypto';
import { entropyToMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { now } from '../core/clock';
import { db, type Tx } from '../core/db';
import { isSandbox } from '../core/mode';
import { fieldError } from '../core/errors';
import { get as getAccount, type InternalAccount } from '../accounts/service';
import { setPrivacy } from '../accounts/repository';
import { sealedEnvelope } from '../core/crypto/hpke';
import { parsePublicKey } from '../core/crypto/p256';
import { signedAction, type Challenge, type SignedRequest } from './signed-retry';
import { bundleSigner, seal, unseal } from '../core/crypto/vault';
import { walletAccount } from './accounts';
import { isChallenge } from './presenter';
import * as repo from './repository';

// Wallet-level actions the wallet holder signs: exporting the wallet's mnemonic (sealed to a
// fresh client key) and changing its privacy setting.
export const secretPurpose = (accountId: string) => `wallet-seed:${accountId}`;

/** The wallet's 256-bit root secret, created (and sealed at rest) the first time it is needed. */
async function walletSeed(tx: Tx, platformId: string, accountId: string): Promise<Uint8Array> {
  const existing = await repo.findWalletSecret(accountId, tx);
  if (existing) return unseal(existing.seedSealed, secretPurpose(accountId));
  const seed = Uint8Array.from(randomBytes(32));
  await repo.insertWalletSecret(
    { accountId, platformId, seedSealed: seal(seed, secretPurpose(accountId)), createdAt: now() },
    tx,
  );
  return seed;
}

/**
 * POST /internal-accounts/{id}/export. The signed payload names the clientPublicKey, and the
 * retry must carry the same one (a different key is a different body: 401). The envelope is the
 * reference's {version, data: hex({encappedPublic, ciphertext, organizationId}), dataSignature,
 * enclaveQuorumPublic}; the sandbox leaves the signature fields empty, as the reference says.
 */
export async function exportWallet(
  platformId: string,
  accountId: string,
  clientPublicKey: string,
  request: SignedRequest,
): Promise<Challenge | { id: string; encryptedWalletCredentials: string }> {
  const account = await walletAccount(platformId, accountId, db(), 'id');
  const target = parsePublicKey(clientPublicKey);
  if (!target) throw fieldError('clientPublicKey', 'clientPublicKey is not a point on P-256');
  const result = await signedAction(
    request,
    {
      platformId,
      kind: 'WALLET_EXPORT',
      accountIds: [account.id],
      activity: {
        type: 'ACTIVITY_TYPE_EXPORT_WALLET',
        parameters: { targetPublicKey: clientPublicKey, walletId: account.id },
      },
    },
    async (tx) => ({ seed: await walletSeed(tx, platformId, account.id) }),
  );
  if (isChallenge(result)) return result;
  // The exported secret is the wallet's mnemonic, as the reference says: the BIP-39 English words
  // (24) of its 256-bit root entropy.
  const plaintext = new TextEncoder().encode(entropyToMnemonic(result.seed, wordlist));
  result.seed.fill(0);
  const envelope = await sealedEnvelope(plaintext, target, platformId, isSandbox() ? null : bundleSigner());
  return { id: account.id, encryptedWalletCredentials: envelope };
}

/** PATCH /internal-accounts/{id}: wallet privacy, bound into the payload and applied on the signed retry. */
export async function updateWallet(
  platformId: string,
  accountId: string,
  patch: { privateEnabled?: boolean },
  request: SignedRequest,
): Promise<Challenge | InternalAccount> {
  const account = await walletAccount(platformId, accountId, db(), 'id');
  return signedAction(
    request,
    {
      platformId,
      kind: 'WALLET_UPDATE',
      accountIds: [account.id],
      activity: {
        type: 'ACTIVITY_TYPE_UPDATE_WALLET',
        parameters: { privateEnabled: patch.privateEnabled, walletId: account.id },
      },
    },
    async (tx) => {
      if (patch.privateEnabled !== undefined) await setPrivacy(account.id, patch.privateEnabled, now(), tx);
      return getAccount(platformId, account.id, tx);
    },
  );
}
