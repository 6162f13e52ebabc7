import { expect } from 'vitest';
import type { TestPlatform } from './api';

// Helpers for money-movement tests: customers with funded accounts, and the sandbox clock.
export interface Holder {
  customerId: string;
  umaAddress: string;
  accounts: Record<string, string>;
}

export async function customerWithAccounts(
  p: TestPlatform,
  fullName: string,
  currencies: string[],
  extra: Record<string, unknown> = {},
): Promise<Holder> {
  const c = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName, currencies, ...extra });
  expect(c.status, c.text).toBe(201);
  const list = await p.api.get('/customers/internal-accounts', { query: { customerId: c.body.id, limit: 100 } });
  const accounts: Record<string, string> = {};
  for (const a of list.body.data as { id: string; type: string; balance: { currency: { code: string } } }[]) {
    if (a.type !== 'EMBEDDED_WALLET') accounts[a.balance.currency.code] = a.id;
  }
  return { customerId: c.body.id, umaAddress: c.body.umaAddress, accounts };
}

export async function fund(p: TestPlatform, accountId: string, amount: number | bigint) {
  const res = await p.api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export async function balanceOf(p: TestPlatform, accountId: string): Promise<{ available: bigint; total: bigint }> {
  for (const path of ['/customers/internal-accounts', '/platform/internal-accounts']) {
    let cursor: string | undefined;
    do {
      const res = await p.api.get(path, { query: { limit: 100, cursor } });
      const hit = (
        res.body.data as {
          id: string;
          balance: { amount: number | bigint };
          totalBalance: { amount: number | bigint };
        }[]
      ).find((a) => a.id === accountId);
      if (hit) return { available: BigInt(hit.balance.amount), total: BigInt(hit.totalBalance.amount) };
      cursor = res.body.hasMore ? res.body.nextCursor : undefined;
    } while (cursor);
  }
  throw new Error(`account ${accountId} not found`);
}

/** Fast-forwards the platform's sandbox clock and runs what fell due. */
export async function advance(p: TestPlatform, seconds: number) {
  const res = await p.api.post('/sandbox/clock/advance', { seconds });
  expect(res.status, res.text).toBe(200);
  return res.body as { now: string; offsetSeconds: number; jobsRun: number };
}

export async function txn(p: TestPlatform, id: string) {
  const res = await p.api.get(`/transactions/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const beneficiary = {
  beneficiaryType: 'INDIVIDUAL',
  fullName: 'Pat Receiver',
  countryOfResidence: 'DE',
  address: { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
};
const pad = (n: number, suffix: string) => `${'4000000000000000000000000'.slice(0, n - suffix.length)}${suffix}`;

/** An external bank account whose identifier ends in `suffix` (drives the sandbox outcome). */
export async function externalAccount(
  p: TestPlatform,
  customerId: string | null,
  currency: 'USD' | 'EUR' | 'MXN',
  suffix: string,
  extra: Record<string, unknown> = {},
) {
  const accountInfo =
    currency === 'USD'
      ? {
          accountType: 'USD_ACCOUNT',
          accountNumber: pad(12, suffix),
          routingNumber: '021000021',
          bankAccountType: 'CHECKING',
          bankName: 'Test Bank',
          beneficiary,
        }
      : currency === 'EUR'
        ? { accountType: 'EUR_ACCOUNT', iban: `DE89${pad(18, suffix)}`, beneficiary }
        : { accountType: 'MXN_ACCOUNT', clabeNumber: pad(18, suffix), beneficiary };
  const path = customerId ? '/customers/external-accounts' : '/platform/external-accounts';
  const res = await p.api.post(path, { ...(customerId ? { customerId } : {}), currency, accountInfo, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}
