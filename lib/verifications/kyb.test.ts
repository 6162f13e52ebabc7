import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { upload } from '@/lib/documents/testing';
import { decideReview } from './service';
import { switchMode } from '@/tests/support/mode';

// KYB of businesses: the sandbox table (last 3 characters of businessInfo.registrationNumber)
// row by row, what a complete business is, and beneficial-owner KYC (last 3 characters of
// personalInfo.lastName) applied when the business is decided.
const address = { line1: '456 Business Ave', city: 'Seattle', state: 'WA', postalCode: '98101', country: 'US' };
const business = (registrationNumber: string, extra: Record<string, unknown> = {}) => ({
  customerType: 'BUSINESS',
  businessInfo: {
    legalName: 'Acme Corp',
    country: 'US',
    taxId: '12-3456789',
    incorporatedOn: '2015-03-01',
    registrationNumber,
    ...extra,
  },
});
const owner = (customerId: string, lastName: string, roles = ['UBO', 'CONTROL_PERSON'], ownershipPercentage = 30) => ({
  customerId,
  roles,
  ownershipPercentage,
  personalInfo: {
    firstName: 'Pat',
    lastName,
    birthDate: '1980-05-05',
    nationality: 'US',
    address,
    idType: 'SSN',
    identifier: '123-45-6789',
  },
});

type Event = Awaited<ReturnType<typeof eventsOf>>[number];
const about = (events: Event[], id: string) =>
  events.filter((e) => e.body.data.id === id || e.body.data.customerId === id);

// What a business created with only its businessInfo lacks, in the order the errors list it.
const everythingMissing = (id: string) => [
  { resourceId: id, type: 'MISSING_FIELD', field: 'customer.address', reason: expect.any(String) },
  {
    resourceId: id,
    type: 'MISSING_FIELD',
    field: 'customer.businessInfo.countriesOfOperation',
    reason: expect.any(String),
  },
  { resourceId: id, type: 'MISSING_BENEFICIAL_OWNER', reason: expect.any(String) },
  { resourceId: id, type: 'MISSING_CONTROL_PERSON', reason: expect.any(String) },
  {
    resourceId: id,
    type: 'MISSING_LEGAL_PRESENCE_DOCUMENT',
    acceptedDocumentTypes: [
      'CERTIFICATE_OF_INCORPORATION',
      'ARTICLES_OF_INCORPORATION',
      'ARTICLES_OF_ASSOCIATION',
      'STATE_REGISTRY_EXCERPT',
    ],
    reason: expect.any(String),
  },
  {
    resourceId: id,
    type: 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
    acceptedDocumentTypes: ['SHAREHOLDER_REGISTER', 'TRUST_AGREEMENT', 'PARTNERSHIP_AGREEMENT'],
    reason: expect.any(String),
  },
  {
    resourceId: id,
    type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    acceptedDocumentTypes: [
      'UTILITY_BILL',
      'RENT_OR_LEASE_AGREEMENT',
      'ELECTRICITY_BILL',
      'BANK_STATEMENT',
      'TAX_RETURN',
    ],
    reason: expect.any(String),
  },
];

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

async function create(body: Record<string, unknown>) {
  const res = await p.api.post('/customers', body);
  expect(res.status, res.text).toBe(201);
  expect(res.body.kybStatus).toBe('UNVERIFIED');
  return res.body.id as string;
}
const submit = (customerId: string) => p.api.post('/verifications', { customerId });
const addOwner = async (body: ReturnType<typeof owner>) => {
  const res = await p.api.post('/beneficial-owners', body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; kycStatus: string };
};
const ownerStatuses = async (customerId: string) =>
  Object.fromEntries(
    (await p.api.get('/beneficial-owners', { query: { customerId } })).body.data.map(
      (o: { personalInfo: { lastName: string }; kycStatus: string }) => [o.personalInfo.lastName, o.kycStatus],
    ),
  );

describe('other suffix: immediate APPROVED, skipping validation', () => {
  it('approves with nothing collected, decides the owners by last name, then refuses re-submission', async () => {
    const id = await create(business('REG-123'));
    // Owners are not requested, but those declared are decided with the business.
    await addOwner(owner(id, 'Smith', ['UBO'], 20));
    await addOwner(owner(id, 'Smith 001', ['DIRECTOR'], 20));
    await addOwner(owner(id, 'Smith 002', ['COMPANY_OFFICER'], 20));
    const res = await submit(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ customerId: id, verificationStatus: 'APPROVED', errors: [] });
    expect((await p.api.get(`/customers/${id}`)).body.kybStatus).toBe('APPROVED');
    expect(await ownerStatuses(id)).toEqual({ Smith: 'APPROVED', 'Smith 001': 'PENDING', 'Smith 002': 'REJECTED' });

    const events = about(await eventsOf(p.platformId), id);
    expect(events.map((e) => e.type)).toEqual(['VERIFICATION.APPROVED', 'CUSTOMER.KYB_APPROVED']);
    expect(events[0].body.data).toEqual(res.body);
    const customer = events[1].body.data as { kybStatus: string; beneficialOwners: { kycStatus: string }[] };
    expect(customer.kybStatus).toBe('APPROVED');
    expect(customer.beneficialOwners.map((o) => o.kycStatus).sort()).toEqual(['APPROVED', 'PENDING', 'REJECTED']);

    const again = await submit(id);
    expectError(again, 400, 'INVALID_INPUT');
    expect(again.body.message).toMatch(/already approved/);
    // An owner added after the decision is decided at once.
    expect((await addOwner(owner(id, 'Late 002', ['DIRECTOR'], 0))).kycStatus).toBe('REJECTED');
    expect((await addOwner(owner(id, 'Later', ['DIRECTOR'], 0))).kycStatus).toBe('APPROVED');
  });
});

describe('002: immediate REJECTED, skipping validation', () => {
  it('rejects with nothing collected, decides the owners, then refuses re-submission', async () => {
    const id = await create(business('REG-002'));
    await addOwner(owner(id, 'Jones 001'));
    const res = await submit(id);
    expect(res.body).toMatchObject({ verificationStatus: 'REJECTED', errors: [] });
    expect((await p.api.get(`/customers/${id}`)).body.kybStatus).toBe('REJECTED');
    expect(await ownerStatuses(id)).toEqual({ 'Jones 001': 'PENDING' });
    expect(about(await eventsOf(p.platformId), id).map((e) => e.type)).toEqual([
      'VERIFICATION.REJECTED',
      'CUSTOMER.KYB_REJECTED',
    ]);
    const again = await submit(id);
    expectError(again, 400, 'INVALID_INPUT');
    expect(again.body.message).toMatch(/already rejected/);
  });
});

describe.each(['003', '001'])('%s: no auto-decision, normal validation', (suffix) => {
  it('lists every missing item, resolves item by item, waits in PENDING_MANUAL_REVIEW', async () => {
    const id = await create(business(`REG-${suffix}`));
    const first = await submit(id);
    expect(first.status, first.text).toBe(200);
    expect(first.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(first.body.errors).toEqual(everythingMissing(id));
    const items = (res: typeof first) =>
      res.body.errors.map((e: { resourceId: string; field?: string; type: string }) =>
        e.resourceId === id ? (e.field ?? e.type) : `${e.type}@owner`,
      );

    await p.api.patch(`/customers/${id}`, {
      customerType: 'BUSINESS',
      address,
      businessInfo: { countriesOfOperation: ['US', 'CA'] },
    });
    const fields = await submit(id);
    expect(fields.body.id).toBe(first.body.id);
    expect(items(fields)).toEqual([
      'MISSING_BENEFICIAL_OWNER',
      'MISSING_CONTROL_PERSON',
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
      'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
      'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    ]);

    // An owner who is not a control person: the control person and the owner's ID are missing.
    const ubo = await addOwner(owner(id, 'Owner', ['UBO'], 60));
    const withOwner = await submit(id);
    expect(items(withOwner)).toEqual([
      'MISSING_CONTROL_PERSON',
      'MISSING_IDENTITY_DOCUMENT@owner',
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
      'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
      'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    ]);
    expect(withOwner.body.errors[1]).toMatchObject({
      resourceId: ubo.id,
      type: 'MISSING_IDENTITY_DOCUMENT',
      acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
    });

    await upload(p.api, ubo.id, 'PASSPORT');
    const cp = await addOwner(owner(id, 'Control', ['CONTROL_PERSON', 'DIRECTOR'], 0));
    expect(items(await submit(id))).toEqual([
      'MISSING_IDENTITY_DOCUMENT@owner',
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
      'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
      'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    ]);
    await upload(p.api, cp.id, 'DRIVERS_LICENSE');

    // A document only counts in its category and only when held by the business itself.
    await upload(p.api, ubo.id, 'CERTIFICATE_OF_INCORPORATION');
    await upload(p.api, id, 'BUSINESS_LICENSE');
    expect(items(await submit(id))).toEqual([
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
      'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
      'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    ]);
    await upload(p.api, id, 'ARTICLES_OF_ASSOCIATION');
    expect(items(await submit(id))).toEqual([
      'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
      'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    ]);
    await upload(p.api, id, 'SHAREHOLDER_REGISTER');
    expect(items(await submit(id))).toEqual(['MISSING_PROOF_OF_ADDRESS_DOCUMENT']);
    expect((await p.api.get(`/customers/${id}`)).body.kybStatus).toBe('UNVERIFIED');
    await upload(p.api, id, 'UTILITY_BILL');

    const done = await submit(id);
    expect(done.body).toMatchObject({ id: first.body.id, verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] });
    expect((await p.api.get(`/customers/${id}`)).body.kybStatus).toBe('PENDING');
    // The owners' verification runs with the business's review.
    expect(Object.values(await ownerStatuses(id))).toEqual(['PENDING', 'PENDING']);
    const types = about(await eventsOf(p.platformId), id).map((e) => e.type);
    expect(types.slice(-2)).toEqual(['VERIFICATION.PENDING_MANUAL_REVIEW', 'CUSTOMER.KYB_PENDING']);
    expect(types.filter((t) => t === 'VERIFICATION.RESOLVE_ERRORS')).toHaveLength(7);
    // Under review nothing is re-evaluated; an owner declared now joins the running review.
    expect((await submit(id)).body).toEqual(done.body);
    expect((await addOwner(owner(id, 'Late', ['DIRECTOR'], 0))).kycStatus).toBe('PENDING');
  });
});

// The same rows again, for the reviewer's decision.
describe.each(['003', '001'])('%s: no auto-decision, normal validation', (suffix) => {
  it('a reviewer decision resolves the business and decides its owners; then POST /verifications → 400', async () => {
    const id = await create(business(`REG-B-${suffix}`, { countriesOfOperation: ['US'] }));
    await p.api.patch(`/customers/${id}`, { customerType: 'BUSINESS', address });
    const owners = [
      await addOwner(owner(id, 'Alpha', ['UBO', 'CONTROL_PERSON'], 40)),
      await addOwner(owner(id, 'Beta 001', ['UBO'], 30)),
      await addOwner(owner(id, 'Gamma 002', ['UBO'], 30)),
    ];
    for (const o of owners) await upload(p.api, o.id, 'PASSPORT');
    for (const t of ['STATE_REGISTRY_EXCERPT', 'TRUST_AGREEMENT', 'BANK_STATEMENT']) await upload(p.api, id, t);
    const v = (await submit(id)).body;
    expect(v.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    const decision = suffix === '003' ? 'APPROVED' : 'REJECTED';
    await decideReview(p.platformId, v.id, decision);
    expect((await p.api.get(`/verifications/${v.id}`)).body).toMatchObject({
      verificationStatus: decision,
      errors: [],
    });
    expect((await p.api.get(`/customers/${id}`)).body.kybStatus).toBe(decision);
    expect(await ownerStatuses(id)).toEqual({ Alpha: 'APPROVED', 'Beta 001': 'PENDING', 'Gamma 002': 'REJECTED' });
    expect(
      about(await eventsOf(p.platformId), id)
        .map((e) => e.type)
        .slice(-2),
    ).toEqual([`VERIFICATION.${decision}`, `CUSTOMER.KYB_${decision}`]);
    expectError(await submit(id), 400, 'INVALID_INPUT');
  });
});

describe('outside sandbox (no KYC vendor)', () => {
  afterEach(() => {
    switchMode('sandbox');
  });

  it('no registration number decides: every business is validated and waits for review; owners follow the decision', async () => {
    switchMode('production');
    const id = await create(business('REG-123', { countriesOfOperation: ['US'] }));
    expect((await submit(id)).body.verificationStatus).toBe('RESOLVE_ERRORS');
    await p.api.patch(`/customers/${id}`, { customerType: 'BUSINESS', address });
    const o = await addOwner(owner(id, 'Prod 002'));
    await upload(p.api, o.id, 'NATIONAL_ID');
    for (const t of ['CERTIFICATE_OF_INCORPORATION', 'PARTNERSHIP_AGREEMENT', 'ELECTRICITY_BILL'])
      await upload(p.api, id, t);
    const v = (await submit(id)).body;
    expect(v.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    await decideReview(p.platformId, v.id, 'APPROVED');
    expect(await ownerStatuses(id)).toEqual({ 'Prod 002': 'APPROVED' });
  });
});
