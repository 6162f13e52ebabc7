import { beforeAll, describe, expect, it } from 'vitest';
import { findWithOwner } from '@/lib/accounts/repository';
import { findLiveAny } from '@/lib/external-accounts/repository';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { balanceOf, customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { findParties } from './repository';

// Quote creation reads its source account (with owner) and external destination in one statement
// (findParties). It must see exactly what the two separate reads see, scoped to the platform.
describe('payment parties read together', () => {
  let p: TestPlatform;
  let other: TestPlatform;
  let alice: Holder;
  let ext: string;
  let platformUsd: string;
  beforeAll(async () => {
    p = await newPlatform();
    other = await newPlatform();
    alice = await customerWithAccounts(p, 'Alice Parties', ['USD']);
    await fund(p, alice.accounts.USD, 100_000);
    ext = await externalAccount(p, alice.customerId, 'EUR', '0001');
    const own = await p.api.get('/platform/internal-accounts');
    platformUsd = (own.body.data as { id: string; balance: { currency: { code: string } } }[]).find((a) => a.balance.currency.code === 'USD')!.id;
  });

  it('returns the same rows as the separate reads', async () => {
    const both = await findParties(p.platformId, alice.accounts.USD, ext);
    expect(both.source).toEqual(await findWithOwner(p.platformId, alice.accounts.USD));
    expect(both.external).toEqual(await findLiveAny(p.platformId, ext));
    expect(both.source?.customer?.id).toBe(alice.customerId);
    expect(both.external?.id).toBe(ext);
    // A platform-owned account has no owning customer.
    const platformOwned = await findParties(p.platformId, platformUsd, ext);
    expect(platformOwned.source?.account.id).toBe(platformUsd);
    expect(platformOwned.source?.customer).toBeNull();
  });

  it('finds each end on its own, and nothing of another platform', async () => {
    const missing = 'InternalAccount:00000000-0000-0000-0000-000000000000';
    const onlyExternal = await findParties(p.platformId, missing, ext);
    expect(onlyExternal.source).toBeNull();
    expect(onlyExternal.external?.id).toBe(ext);
    const onlySource = await findParties(p.platformId, alice.accounts.USD, 'ExternalAccount:00000000-0000-0000-0000-000000000000');
    expect(onlySource.source?.account.id).toBe(alice.accounts.USD);
    expect(onlySource.external).toBeNull();
    expect(await findParties(other.platformId, alice.accounts.USD, ext)).toEqual({ source: null, external: null });
  });

  it('refuses quotes whose ends the combined read does not find, moving nothing', async () => {
    const body = (source: string, destination: string) => ({
      source: { sourceType: 'ACCOUNT', accountId: source },
      destination: { destinationType: 'ACCOUNT', accountId: destination },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    });
    // Another platform's external account, then a deleted one.
    const foreign = await externalAccount(other, null, 'EUR', '0001');
    expectError(await p.api.post('/quotes', body(alice.accounts.USD, foreign)), 404, 'REFERENCE_NOT_FOUND');
    const gone = await externalAccount(p, alice.customerId, 'EUR', '0011');
    expect((await p.api.delete(`/customers/external-accounts/${gone}`)).status).toBe(204);
    expectError(await p.api.post('/quotes', body(alice.accounts.USD, gone)), 404, 'REFERENCE_NOT_FOUND');
    expect((await findParties(p.platformId, alice.accounts.USD, gone)).external).toBeNull();
    // Another platform's source account.
    const res = await other.api.post('/quotes', body(alice.accounts.USD, foreign));
    expectError(res, 400, 'INVALID_INPUT');
    expect(JSON.stringify(res.body)).toContain('source.accountId');
    // The valid pair still quotes and executes.
    const q = await p.api.post('/quotes', body(alice.accounts.USD, ext));
    expect(q.status, q.text).toBe(201);
    expect((await p.api.post(`/quotes/${q.body.id}/execute`)).status).toBe(200);
    expect((await balanceOf(p, alice.accounts.USD)).available).toBe(100_000n - 1000n);
    await expectLedgerBalanced(p.platformId);
  });
});
