import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SCHEMES, SEALED_COLUMNS } from '@/lib/core/crypto/sealed-columns.mjs';
import { sealPurpose as cardPurpose } from '@/lib/cards/service';
import { SEAL_PURPOSE as totpPurpose } from '@/lib/sca/totp';
import { sealPurpose as stablecoinPurpose } from '@/lib/stablecoins/links';
import { targetPurpose } from '@/lib/wallet-auth/otp';
import { contextPurpose } from '@/lib/wallet-auth/signed-retry';
import { keyPurpose } from '@/lib/wallet-auth/delegated-keys';
import { secretPurpose } from '@/lib/wallet-auth/wallet';
import { sealContext as webhookKeyContext } from '@/lib/webhooks/keys';

// scripts/rotate-master-key.mjs re-seals the columns lib/core/crypto/sealed-columns.mjs lists,
// each with the context its domain seals it with. A column missing there would keep its secrets
// under the old key (unreadable once that key is retired); a wrong context would fail to open.
const entry = (table: string, column: string) => {
  const e = SEALED_COLUMNS.find((c) => c.table === table && c.column === column);
  if (!e) throw new Error(`${table}.${column} is not listed in lib/core/crypto/sealed-columns.mjs`);
  return e;
};

it('lists every sealed column of the schema', () => {
  const dir = path.join(__dirname, '..', 'prisma', 'schema');
  const found: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.prisma'))) {
    let model = '';
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      const m = /^model (\w+)/.exec(line);
      if (m) model = m[1];
      const field = /^\s+(\w*(?:[Ss]ealed|[Ee]ncrypted)\w*)\s+String/.exec(line);
      if (field) found.push(`${model}.${field[1]}`);
    }
  }
  expect(found.length).toBeGreaterThanOrEqual(9);
  expect(found.sort()).toEqual(SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`).sort());
});

it('binds each column to the context its domain seals it with', () => {
  const id = 'X:00000000-0000-0000-0000-000000000001';
  const domains: [string, string, string][] = [
    ['Card', 'panSealed', cardPurpose(id, 'pan')],
    ['Card', 'cvvSealed', cardPurpose(id, 'cvv')],
    ['ScaFactor', 'secretSealed', totpPurpose],
    ['StablecoinProviderAccount', 'sealedCredentials', stablecoinPurpose(id)],
    ['OtpChallenge', 'targetSecretKeySealed', targetPurpose(id)],
    ['SignedRequest', 'sealedContext', contextPurpose(id)],
    ['DelegatedKey', 'secretKeySealed', keyPurpose(id)],
    ['EmbeddedWalletSecret', 'seedSealed', secretPurpose(id)],
    ['WebhookSigningKey', 'encryptedPrivateKey', webhookKeyContext(id)],
  ];
  for (const [table, column, context] of domains)
    expect(entry(table, column).context(id), `${table}.${column}`).toBe(context);
  expect(domains).toHaveLength(SEALED_COLUMNS.length);
  expect(entry('WebhookSigningKey', 'encryptedPrivateKey').scheme).toBe('webhookKeys');
  expect(SEALED_COLUMNS.filter((c) => c.scheme === 'vault')).toHaveLength(8);
  expect(Object.keys(SCHEMES).sort()).toEqual(['vault', 'webhookKeys']);
});
