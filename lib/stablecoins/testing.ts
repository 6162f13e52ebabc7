import { expect } from 'vitest';
import type { TestPlatform } from '@/tests/support/api';

// Helpers shared by the stablecoin HTTP tests.
let counter = 0;
/** A fresh Idempotency-Key (the reference requires one on every stablecoin POST). */
export const key = () => `sc-${Date.now()}-${++counter}-${Math.random().toString(36).slice(2)}`;
export const keyed = (): { headers: Record<string, string> } => ({ headers: { 'idempotency-key': key() } });

export const TOKEN_ID = 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k';

export async function linkAccount(p: TestPlatform, apiClientId = `client_${key()}`, apiClientSecret = 'secret_ok') {
  const res = await p.api.post(
    '/stablecoin-provider-accounts',
    { provider: 'BRALE', apiClientId, apiClientSecret },
    keyed(),
  );
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; providerAccountId: string; status: string };
}

export async function registerCoin(p: TestPlatform, providerTokenIdentifier: string, linkId?: string) {
  const res = await p.api.post(
    '/stablecoins',
    {
      providerTokenIdentifier,
      networkTokenIdentifier: TOKEN_ID,
      network: 'SPARK',
      ...(linkId ? { stablecoinProviderAccountId: linkId } : {}),
    },
    keyed(),
  );
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; symbol: string; decimals: number; issuanceStatus: string };
}

/** A platform Spark wallet (the mint destination of the Brale-backed flow). */
export async function sparkWallet(p: TestPlatform, tail = '951') {
  const res = await p.api.post('/platform/external-accounts', {
    currency: 'BTC',
    accountInfo: {
      accountType: 'SPARK_WALLET',
      address: `spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6m${tail}`,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

export async function platformAccount(p: TestPlatform, currency: string) {
  const res = await p.api.get('/platform/internal-accounts', { query: { currency } });
  expect(res.status, res.text).toBe(200);
  return res.body.data[0].id as string;
}

/** The balance of one of the platform's outside-world ledger accounts (WORLD:<name>). */
export async function worldBalance(p: TestPlatform, name: string, currency: string): Promise<bigint> {
  const { db } = await import('@/lib/core/db');
  const row = await db().ledgerAccount.findUnique({ where: { id: `${p.platformId}/WORLD:${name}/${currency}` } });
  return row?.balance ?? 0n;
}

/** Every INTERNAL_ACCOUNT.BALANCE_UPDATED the platform recorded matches the reference's webhook schema. */
export async function expectBalanceWebhooksValid(p: TestPlatform, accountId: string) {
  const { eventsOf } = await import('@/lib/events/outbox');
  const { checkWebhook } = await import('@/tests/support/conformance');
  const events = (await eventsOf(p.platformId, 'INTERNAL_ACCOUNT.BALANCE_UPDATED')).filter(
    (e) => (e.body.data as { id: string }).id === accountId,
  );
  expect(events.length).toBeGreaterThan(0);
  // Throws on a mismatch; without the reference the check is named at the end of the run.
  for (const e of events) checkWebhook('internal-account-status', e.body);
  return events.map((e) => e.body.data as { balance: { amount: number | bigint } });
}

export const getOp = async (p: TestPlatform, id: string) => {
  const res = await p.api.get(`/stablecoin-operations/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
