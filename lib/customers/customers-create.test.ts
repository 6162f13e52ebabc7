import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { address, business, individual } from './testing';

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

describe('sandbox KYC at creation (last 3 characters of fullName)', () => {
  it.each([
    ['Ada Lovelace 001', 'PENDING', 'CUSTOMER.KYC_PENDING'],
    ['Ada Lovelace 002', 'REJECTED', 'CUSTOMER.KYC_REJECTED'],
    ['Ada Lovelace 003', 'UNVERIFIED', null],
    ['Ada Lovelace', 'APPROVED', 'CUSTOMER.KYC_APPROVED'],
  ])('%s → %s', async (fullName, status, event) => {
    const res = await p.api.post('/customers', individual(fullName));
    expect(res.status, res.text).toBe(201);
    expect(res.body.kycStatus).toBe(status);
    const events = (await eventsOf(p.platformId)).filter((e) => e.body.data.id === res.body.id);
    expect(events.map((e) => e.type)).toEqual(event ? [event] : []);
    if (event) expect(events[0].body.data).toMatchObject({ id: res.body.id, kycStatus: status });
  });
});

it('creates an individual with a generated UMA address, platformCustomerId and internal accounts', async () => {
  const res = await p.api.post(
    '/customers',
    individual('Grace Hopper', { email: 'grace@example.com', identifier: '123-45-6789', idType: 'SSN' }),
  );
  expect(res.status).toBe(201);
  const c = res.body;
  expect(c.id).toMatch(/^Customer:[0-9a-f-]{36}$/);
  expect(c.umaAddress).toMatch(/^\$grace\.hopper\.[0-9a-f]{8}@sandbox\.uma\.money$/);
  expect(typeof c.platformCustomerId).toBe('string');
  expect(c.identifier).toBeUndefined(); // write-only
  expect(c).toMatchObject({
    customerType: 'INDIVIDUAL',
    fullName: 'Grace Hopper',
    birthDate: '1990-01-15',
    nationality: 'US',
    address,
    idType: 'SSN',
    isDeleted: false,
  });
  const accounts = await p.api.get('/customers/internal-accounts', { query: { customerId: c.id } });
  expect(accounts.status).toBe(200);
  const kinds = accounts.body.data
    .map(
      (a: { type: string; balance: { amount: number; currency: { code: string } } }) =>
        `${a.type}:${a.balance.currency.code}:${a.balance.amount}`,
    )
    .sort();
  expect(kinds).toEqual([
    'EMBEDDED_WALLET:USD:0',
    'INTERNAL_CRYPTO:USDC:0',
    'INTERNAL_FIAT:EUR:0',
    'INTERNAL_FIAT:MXN:0',
    'INTERNAL_FIAT:USD:0',
  ]);
  const usd = accounts.body.data.find(
    (a: { type: string; balance: { currency: { code: string } } }) =>
      a.type === 'INTERNAL_FIAT' && a.balance.currency.code === 'USD',
  );
  expect(usd.fundingPaymentInstructions[0].accountOrWalletInfo).toMatchObject({
    accountType: 'USD_ACCOUNT',
    paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
  });
});

it('opens accounts only for the requested currencies, which must be supported', async () => {
  const res = await p.api.post('/customers', individual('Only Euro', { currencies: ['EUR'] }));
  expect(res.status).toBe(201);
  expect(res.body.currencies).toEqual(['EUR']);
  const accounts = await p.api.get('/customers/internal-accounts', { query: { customerId: res.body.id } });
  expect(accounts.body.data.map((a: { balance: { currency: { code: string } } }) => a.balance.currency.code)).toEqual([
    'EUR',
  ]);
  expectError(await p.api.post('/customers', individual('Yen', { currencies: ['JPY'] })), 400, 'INVALID_CURRENCY');
});

it('creates a business with kybStatus UNVERIFIED and requires businessInfo', async () => {
  const res = await p.api.post('/customers', business('REG-123'));
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    customerType: 'BUSINESS',
    kybStatus: 'UNVERIFIED',
    businessInfo: { legalName: 'Acme Corp', registrationNumber: 'REG-123' },
    beneficialOwners: [],
  });
  const bad = await p.api.post('/customers', { customerType: 'BUSINESS', businessInfo: { legalName: 'X' } });
  expectError(bad, 400, 'INVALID_INPUT');
  expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
    'businessInfo.country',
    'businessInfo.incorporatedOn',
    'businessInfo.taxId',
  ]);
});

it('validates fields with one error per field', async () => {
  const res = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    email: 'nope',
    phoneNumber: '555',
    birthDate: '1990-02-30',
    nationality: 'usa',
    address: { line1: 'x' },
  });
  expectError(res, 400, 'INVALID_INPUT');
  const fields = res.body.details.errors.map((e: { field: string }) => e.field).sort();
  expect(fields).toEqual(['address.country', 'address.postalCode', 'birthDate', 'email', 'nationality', 'phoneNumber']);
  expect(res.body.details.errors.find((e: { field: string }) => e.field === 'email').constraint).toEqual({
    format: 'email',
  });
  const type = await p.api.post('/customers', { customerType: 'ROBOT' });
  expectError(type, 400, 'INVALID_INPUT');
  expect(type.body.details.errors[0]).toMatchObject({
    field: 'customerType',
    constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] },
  });
});

it('refuses a platformCustomerId of an active customer with 409 CONFLICT', async () => {
  expect((await p.api.post('/customers', individual('First', { platformCustomerId: 'ext-1' }))).status).toBe(201);
  expectError(await p.api.post('/customers', individual('Second', { platformCustomerId: 'ext-1' })), 409, 'CONFLICT');
  // Another platform may use the same id.
  const q = await newPlatform();
  expect((await q.api.post('/customers', individual('Elsewhere', { platformCustomerId: 'ext-1' }))).status).toBe(201);
});

it('creates one customer when the same platformCustomerId or UMA address arrives concurrently', async () => {
  const byId = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      p.api.post('/customers', individual(`Racer ${i}`, { platformCustomerId: 'race-1' })),
    ),
  );
  expect(byId.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  for (const r of byId.filter((r) => r.status === 409)) expectError(r, 409, 'CONFLICT');
  const byUma = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      p.api.post('/customers', individual(`Uma Racer ${i}`, { umaAddress: '$race@sandbox.uma.money' })),
    ),
  );
  expect(byUma.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  for (const r of byUma.filter((r) => r.status === 409)) expectError(r, 409, 'UMA_ADDRESS_EXISTS');
  const listed = await p.api.get('/customers?platformCustomerId=race-1');
  expect(listed.body.data).toHaveLength(1);
  // A refused create leaves nothing behind: every customer account and ledger bucket belongs to
  // a customer that exists.
  const orphans = await db().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "InternalAccount" a LEFT JOIN "Customer" c ON c."id" = a."customerId"
      WHERE a."platformId" = ${p.platformId} AND a."customerId" IS NOT NULL AND c."id" IS NULL`;
  expect(orphans[0].n).toBe(0);
  const winner = byUma.find((r) => r.status === 201)!.body.id;
  const accounts = await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(winner)}`);
  const buckets = await db().ledgerAccount.count({
    where: { internalAccountId: { in: accounts.body.data.map((a: { id: string }) => a.id) } },
  });
  expect(buckets).toBe(3 * accounts.body.data.length);
  const all = await db().internalAccount.count({ where: { platformId: p.platformId } });
  expect(
    await db().ledgerAccount.count({ where: { platformId: p.platformId, internalAccountId: { not: null } } }),
  ).toBe(3 * all);
});

it('takes a requested UMA address, refuses a taken one and a malformed one', async () => {
  const res = await p.api.post('/customers', individual('Uma User', { umaAddress: '$Alice.Pay@sandbox.uma.money' }));
  expect(res.status).toBe(201);
  expect(res.body.umaAddress).toBe('$alice.pay@sandbox.uma.money');
  expectError(
    await p.api.post('/customers', individual('Uma Two', { umaAddress: '$alice.pay@sandbox.uma.money' })),
    409,
    'UMA_ADDRESS_EXISTS',
  );
  expectError(
    await p.api.post('/customers', individual('Uma Three', { umaAddress: '$bad name@sandbox.uma.money' })),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p.api.post('/customers', individual('Uma Four', { umaAddress: '$bob@other.example' })),
    400,
    'INVALID_INPUT',
  );
});

it('checks the End User Terms version', async () => {
  const terms = await p.api.get('/customers/end-user-terms');
  expect(terms.status).toBe(200);
  expect(terms.body.version).toBe('V1');
  const consent = {
    acceptedAt: '2026-01-01T00:00:00Z',
    ipAddress: '198.51.100.24',
    termsVersion: 'V1',
    acceptanceMethod: 'CHECKBOX',
  };
  const ok = await p.api.post('/customers', individual('Terms Ok', { endUserTermsConsent: consent }));
  expect(ok.status).toBe(201);
  expect(ok.body.endUserTermsConsent).toEqual(consent);
  expectError(
    await p.api.post(
      '/customers',
      individual('Terms Bad', { endUserTermsConsent: { ...consent, termsVersion: 'V9' } }),
    ),
    400,
    'END_USER_TERMS_VERSION_NOT_FOUND',
  );
});
