import { beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, customerWithAccounts, type Holder } from '@/tests/support/money';
import { db } from '@/lib/core/db';
import { unseal } from '@/lib/core/crypto/vault';
import { passesLuhn } from './pan';
import { sealPurpose } from './service';
import { activeCard, cardholder, cardWebhooks } from './testing';

// Issuing, reading, listing and changing cards over HTTP: KYC and funding-source rules, webhooks
// (card-state.test.ts has the state machine).
let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  p = await newPlatform();
  h = await cardholder(p, 'Carla Cardholder', ['USD', 'EUR']);
});

/** Every string and number in a JSON value, as strings. */
const leavesOf = (v: unknown): string[] =>
  v && typeof v === 'object' ? Object.values(v).flatMap(leavesOf) : v === null ? [] : [String(v)];

it('issues a card to a KYC-approved cardholder: PROCESSING, then ACTIVE when the issuer provisions it', async () => {
  const res = await p.api.post('/cards', {
    cardholderId: h.customerId,
    platformCardId: 'card-emp-001',
    form: 'VIRTUAL',
    fundingSources: [h.accounts.USD],
    maxSpendPerTransaction: 5000,
    threeDSecurePassword: 'AbCd1234EfGh5678',
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    cardholderId: h.customerId,
    platformCardId: 'card-emp-001',
    state: 'PROCESSING',
    stateReason: null,
    form: 'VIRTUAL',
    brand: 'VISA',
    fundingSources: [h.accounts.USD],
    maxSpendPerTransaction: 5000,
    currency: 'USD',
  });
  // Never the PAN, CVV or the 3-D Secure password; the PAN is stored sealed and passes Luhn.
  const row = (await db().card.findUnique({ where: { id: res.body.id } }))!;
  const pan = Buffer.from(unseal(row.panSealed, sealPurpose(row.id, 'pan'))).toString();
  const cvv = Buffer.from(unseal(row.cvvSealed, sealPurpose(row.id, 'cvv'))).toString();
  expect(passesLuhn(pan)).toBe(true);
  expect(pan.slice(-4)).toBe(res.body.last4);
  for (const secret of [pan, 'AbCd1234EfGh5678']) expect(res.text).not.toContain(secret);
  // The CVV is three digits, which a timestamp or an id may hold by chance: no value is it.
  expect(leavesOf(res.body)).not.toContain(cvv);
  expect(Object.keys(res.body).filter((k) => /cvv|pan$|password/i.test(k))).toEqual([]);
  expect(row.panSealed).not.toContain(pan);
  await advance(p, 1);
  const got = await p.api.get(`/cards/${res.body.id}`);
  expect(got.body).toMatchObject({ state: 'ACTIVE', stateReason: null });
  expect(got.text).not.toContain(pan);
  const hooks = await cardWebhooks(p.platformId);
  expect(hooks.filter((e) => e.data.id === res.body.id).map((e) => [e.type, e.data.state])).toEqual([
    ['CARD.STATE_CHANGE', 'ACTIVE'],
  ]);
});

it('closes a card the issuer refuses to provision (sandbox: platformCardId ending in 002)', async () => {
  const res = await p.api.post('/cards', {
    cardholderId: h.customerId,
    platformCardId: 'rejected-002',
    form: 'VIRTUAL',
    fundingSources: [h.accounts.USD],
  });
  expect(res.status, res.text).toBe(201);
  await advance(p, 1);
  expect((await p.api.get(`/cards/${res.body.id}`)).body).toMatchObject({
    state: 'CLOSED',
    stateReason: 'ISSUER_REJECTED',
  });
});

it('refuses cardholders whose KYC is not APPROVED, and ineligible funding sources', async () => {
  for (const [suffix, status] of [
    ['001', 'PENDING'],
    ['002', 'REJECTED'],
    ['003', 'UNVERIFIED'],
  ]) {
    const c = await customerWithAccounts(p, `Kyc Pending${suffix}`, ['USD']);
    const res = await p.api.post('/cards', {
      cardholderId: c.customerId,
      form: 'VIRTUAL',
      fundingSources: [c.accounts.USD],
    });
    expectError(res, 400, 'CARDHOLDER_KYC_NOT_APPROVED');
    expect(res.body.message).toContain(status);
  }
  const other = await cardholder(p, 'Otto Other');
  const ineligible = async (fundingSources: string[]) => {
    const res = await p.api.post('/cards', { cardholderId: h.customerId, form: 'VIRTUAL', fundingSources });
    expectError(res, 400, 'INVALID_INPUT');
    return res.body;
  };
  expect((await ineligible([other.accounts.USD])).details).toMatchObject({ reason: 'FUNDING_SOURCE_INELIGIBLE' });
  expect((await ineligible([h.accounts.USD, h.accounts.EUR])).details).toMatchObject({
    reason: 'FUNDING_SOURCE_INELIGIBLE',
    accountId: h.accounts.EUR,
  });
  expect((await ineligible(['InternalAccount:00000000-0000-0000-0000-000000000000'])).details).toMatchObject({
    reason: 'FUNDING_SOURCE_INELIGIBLE',
  });
  await ineligible([]);
  await ineligible([h.accounts.USD, h.accounts.USD]);
  const noForm = await p.api.post('/cards', { cardholderId: h.customerId, fundingSources: [h.accounts.USD] });
  expectError(noForm, 400, 'INVALID_INPUT');
  const zero = await p.api.post('/cards', {
    cardholderId: h.customerId,
    form: 'VIRTUAL',
    fundingSources: [h.accounts.USD],
    maxSpendPerTransaction: 0,
  });
  expectError(zero, 400, 'INVALID_INPUT');
  const nobody = await p.api.post('/cards', {
    cardholderId: 'Customer:00000000-0000-0000-0000-000000000000',
    form: 'VIRTUAL',
    fundingSources: [h.accounts.USD],
  });
  expectError(nobody, 404, 'USER_NOT_FOUND');
  expectError(await p.api.get('/cards/Card:00000000-0000-0000-0000-000000000000'), 404, 'REFERENCE_NOT_FOUND');
});

it('lists cards with the reference filters and cursor pagination', async () => {
  const q = await newPlatform();
  const a = await cardholder(q, 'Lisa List');
  const b = await cardholder(q, 'Bob List');
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await activeCard(q, a, { platformCardId: `a-${i}` })).id);
  const bCard = await activeCard(q, b, { platformCardId: 'b-0' });
  await q.api.patch(`/cards/${ids[1]}`, { state: 'FROZEN' });
  const all = await q.api.get('/cards');
  expect(all.body.totalCount).toBe(4);
  expect(all.body.data.map((c: { id: string }) => c.id)).toEqual([bCard.id, ...ids.slice().reverse()]);
  const byHolder = await q.api.get('/cards', { query: { cardholderId: a.customerId } });
  expect(byHolder.body.data).toHaveLength(3);
  const byAccount = await q.api.get('/cards', { query: { accountId: b.accounts.USD } });
  expect(byAccount.body.data.map((c: { id: string }) => c.id)).toEqual([bCard.id]);
  expect((await q.api.get('/cards', { query: { platformCardId: 'a-2' } })).body.data[0].id).toBe(ids[2]);
  const frozen = await q.api.get('/cards', { query: { state: 'FROZEN' } });
  expect(frozen.body.data.map((c: { id: string }) => c.id)).toEqual([ids[1]]);
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await q.api.get('/cards', { query: { limit: 3, cursor, sortOrder: 'asc' } });
    expect(page.status).toBe(200);
    seen.push(...page.body.data.map((c: { id: string }) => c.id));
    cursor = page.body.hasMore ? page.body.nextCursor : undefined;
  } while (cursor);
  expect(seen).toEqual([...ids, bCard.id]);
  expectError(await q.api.get('/cards', { query: { state: 'LOST' } }), 400, 'INVALID_INPUT');
  expectError(await q.api.get('/cards', { query: { cursor: 'nonsense' } }), 400, 'INVALID_INPUT');
});

it('changes funding sources and the per-transaction limit, announcing funding-source changes', async () => {
  const card = await activeCard(p, h);
  const second = await db().$transaction(async (tx) => {
    const { openCustomerAccounts } = await import('@/lib/accounts/service');
    return openCustomerAccounts(p.platformId, h.customerId, ['USD'], null, tx);
  });
  const sources = [second[0].id, h.accounts.USD];
  const res = await p.api.patch(`/cards/${card.id}`, { fundingSources: sources, maxSpendPerTransaction: 10000 });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ fundingSources: sources, maxSpendPerTransaction: 10000, state: 'ACTIVE' });
  const cleared = await p.api.patch(`/cards/${card.id}`, { maxSpendPerTransaction: null });
  expect(cleared.body.maxSpendPerTransaction).toBeNull();
  expectError(await p.api.patch(`/cards/${card.id}`, { fundingSources: [h.accounts.EUR] }), 400, 'INVALID_INPUT');
  expectError(await p.api.patch(`/cards/${card.id}`, { fundingSources: [] }), 400, 'INVALID_INPUT');
  expectError(await p.api.patch(`/cards/${card.id}`, {}), 400, 'INVALID_INPUT');
  expectError(
    await p.api.patch(`/cards/${card.id}`, { state: 'CLOSED', fundingSources: [h.accounts.USD] }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p.api.patch(`/cards/${card.id}`, { state: 'CLOSED', maxSpendPerTransaction: null }),
    400,
    'INVALID_INPUT',
  );
  const hooks = (await cardWebhooks(p.platformId)).filter(
    (e) => e.data.id === card.id && e.type === 'CARD.FUNDING_SOURCE_CHANGE',
  );
  expect(hooks.map((e) => e.data.fundingSources)).toEqual([sources]);
});
