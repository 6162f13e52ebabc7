// Every database column holding a secret sealed under the master key (lib/core/crypto/keyring.mjs),
// with what it is bound to: scripts/rotate-master-key.mjs re-seals them all under a new key. The
// domains seal with the same uses and contexts; lib/core/crypto/sealed-columns.test.ts holds each
// domain's to its entry here and checks that no sealed column of the schema is missing.

/** The master key's uses (HKDF salt and info): one subkey each. */
export const SCHEMES = {
  /** lib/core/crypto/vault.ts: wallet-auth, cards, SCA, stablecoin credentials. */
  vault: { salt: 'corridor-wallet-auth', info: 'seal' },
  /** lib/webhooks/keys.ts: the platforms' webhook signing keys. */
  webhookKeys: { salt: 'corridor-webhooks', info: 'signing-key-seal' },
};

/**
 * @typedef {{ table: string, column: string, key: string, scheme: keyof typeof SCHEMES,
 *   context: (key: string) => string }} SealedColumn
 */

/** @type {SealedColumn[]} */
export const SEALED_COLUMNS = [
  { table: 'Card', column: 'panSealed', key: 'id', scheme: 'vault', context: (id) => `card:pan:${id}` },
  { table: 'Card', column: 'cvvSealed', key: 'id', scheme: 'vault', context: (id) => `card:cvv:${id}` },
  { table: 'ScaFactor', column: 'secretSealed', key: 'id', scheme: 'vault', context: () => 'sca-totp-secret' },
  {
    table: 'StablecoinProviderAccount',
    column: 'sealedCredentials',
    key: 'id',
    scheme: 'vault',
    context: (id) => `stablecoin-provider-credentials:${id}`,
  },
  {
    table: 'OtpChallenge',
    column: 'targetSecretKeySealed',
    key: 'id',
    scheme: 'vault',
    context: (id) => `otp-target:${id}`,
  },
  {
    table: 'SignedRequest',
    column: 'sealedContext',
    key: 'id',
    scheme: 'vault',
    context: (id) => `signed-request:${id}`,
  },
  {
    table: 'DelegatedKey',
    column: 'secretKeySealed',
    key: 'id',
    scheme: 'vault',
    context: (id) => `delegated-key:${id}`,
  },
  {
    table: 'EmbeddedWalletSecret',
    column: 'seedSealed',
    key: 'accountId',
    scheme: 'vault',
    context: (id) => `wallet-seed:${id}`,
  },
  {
    table: 'WebhookSigningKey',
    column: 'encryptedPrivateKey',
    key: 'platformId',
    scheme: 'webhookKeys',
    context: (id) => `webhook-signing-key:${id}`,
  },
];
