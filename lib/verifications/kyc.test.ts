import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { upload } from '@/lib/documents/testing';
import { address, complete, eventTypesAbout } from './testing';

// KYC of individuals: the sandbox table (last 3 characters of fullName) row by row, the
// completeness rules and contact verification (kyc-review.test.ts: manual review, listing and
// permissions).

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

async function customer(body: Record<string, unknown>) {
  const res = await p.api.post('/customers', body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; kycStatus: string };
}
const submit = (customerId: string) => p.api.post('/verifications', { customerId });

describe('sandbox table', () => {
  it('001: PENDING at creation; complete data and an identity document → PENDING_MANUAL_REVIEW', async () => {
    const c = await customer(complete('Ada Lovelace 001'));
    expect(c.kycStatus).toBe('PENDING');
    const doc = await upload(p.api, c.id, 'PASSPORT');
    const res = await submit(c.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ customerId: c.id, verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] });
    expect(res.body.id).toMatch(/^Verification:[0-9a-f-]{36}$/);
    expect((await p.api.get(`/customers/${c.id}`)).body.kycStatus).toBe('PENDING');
    const events = await eventsOf(p.platformId);
    // Already PENDING since creation: only the verification is announced now.
    expect(eventTypesAbout(events, c.id)).toEqual(['CUSTOMER.KYC_PENDING', 'VERIFICATION.PENDING_MANUAL_REVIEW']);
    expect(
      events.find((e) => e.type === 'VERIFICATION.PENDING_MANUAL_REVIEW' && e.body.data.id === res.body.id)!.body.data,
    ).toEqual(res.body);
    // Under review a re-submission changes nothing and announces nothing.
    const again = await submit(c.id);
    expect(again.body).toEqual(res.body);
    expect(eventTypesAbout(await eventsOf(p.platformId), c.id)).toHaveLength(2);
    // The identity document is now evidence.
    expectError(await p.api.delete(`/documents/${doc.body.id}`), 409, 'CONFLICT');
  });

  it('002: REJECTED at creation; POST /verifications → 400', async () => {
    const c = await customer(complete('Ada Lovelace 002'));
    expect(c.kycStatus).toBe('REJECTED');
    await upload(p.api, c.id, 'PASSPORT');
    expectError(await submit(c.id), 400, 'INVALID_INPUT');
    expect((await p.api.get('/verifications', { query: { customerId: c.id } })).body.totalCount).toBe(0);
  });

  it('003: UNVERIFIED at creation; complete data → RESOLVE_ERRORS with POOR_QUALITY_DOCUMENT', async () => {
    const c = await customer(complete('Ada Lovelace 003'));
    expect(c.kycStatus).toBe('UNVERIFIED');
    const doc = await upload(p.api, c.id, 'NATIONAL_ID');
    const res = await submit(c.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(res.body.errors).toEqual([
      { resourceId: doc.body.id, type: 'POOR_QUALITY_DOCUMENT', reason: expect.any(String) },
    ]);
    expect((await p.api.get(`/customers/${c.id}`)).body.kycStatus).toBe('UNVERIFIED');
    expect(eventTypesAbout(await eventsOf(p.platformId), c.id)).toEqual(['VERIFICATION.RESOLVE_ERRORS']);
    // The document may be replaced; the open verification is re-evaluated, not duplicated.
    const replaced = new FormData();
    replaced.append('documentType', 'PASSPORT');
    replaced.append('country', 'US');
    replaced.append('file', new File([Uint8Array.from([0xff, 0xd8, 0xff, 0xdb])], 'sharper.jpg'));
    expect((await p.api.put(`/documents/${doc.body.id}`, replaced)).status).toBe(200);
    const again = await submit(c.id);
    expect(again.body).toMatchObject({
      id: res.body.id,
      verificationStatus: 'RESOLVE_ERRORS',
      errors: [{ resourceId: doc.body.id, type: 'POOR_QUALITY_DOCUMENT' }],
    });
    expect((await p.api.get('/verifications', { query: { customerId: c.id } })).body.totalCount).toBe(1);
  });

  it('other suffix: APPROVED at creation; POST /verifications → 400', async () => {
    const c = await customer(complete('Ada Lovelace'));
    expect(c.kycStatus).toBe('APPROVED');
    await upload(p.api, c.id, 'PASSPORT');
    const res = await submit(c.id);
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.message).toMatch(/already approved/);
  });
});

describe('missing data → RESOLVE_ERRORS with one error per missing item', () => {
  const everything = (id: string) => [
    { resourceId: id, type: 'MISSING_FIELD', field: 'customer.birthDate', reason: expect.any(String) },
    { resourceId: id, type: 'MISSING_FIELD', field: 'customer.nationality', reason: expect.any(String) },
    { resourceId: id, type: 'MISSING_FIELD', field: 'customer.idType', reason: expect.any(String) },
    { resourceId: id, type: 'MISSING_FIELD', field: 'customer.identifier', reason: expect.any(String) },
    { resourceId: id, type: 'MISSING_FIELD', field: 'customer.address', reason: expect.any(String) },
    {
      resourceId: id,
      type: 'MISSING_IDENTITY_DOCUMENT',
      acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
      reason: expect.any(String),
    },
  ];

  it.each(['001', '003'])('%s: lists every missing item, then resolves item by item', async (suffix) => {
    const c = await customer({ customerType: 'INDIVIDUAL', fullName: `Partial Person ${suffix}` });
    const first = await submit(c.id);
    expect(first.status, first.text).toBe(200);
    expect(first.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(first.body.errors).toEqual(everything(c.id));
    const fields = (res: typeof first) =>
      res.body.errors.map((e: { field?: string; type: string }) => e.field ?? e.type);

    await p.api.patch(`/customers/${c.id}`, {
      customerType: 'INDIVIDUAL',
      birthDate: '1990-01-15',
      nationality: 'US',
    });
    const second = await submit(c.id);
    expect(second.body.id).toBe(first.body.id);
    expect(fields(second)).toEqual([
      'customer.idType',
      'customer.identifier',
      'customer.address',
      'MISSING_IDENTITY_DOCUMENT',
    ]);

    // idType and identifier are separate items.
    await p.api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', idType: 'SSN' });
    expect(fields(await submit(c.id))).toEqual([
      'customer.identifier',
      'customer.address',
      'MISSING_IDENTITY_DOCUMENT',
    ]);
    await p.api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', identifier: '123-45-6789', address });
    expect(fields(await submit(c.id))).toEqual(['MISSING_IDENTITY_DOCUMENT']);

    // Only an identity document of the customer will do.
    await upload(p.api, c.id, 'UTILITY_BILL');
    await upload(p.api, c.id, 'SELFIE');
    expect(fields(await submit(c.id))).toEqual(['MISSING_IDENTITY_DOCUMENT']);
    const doc = await upload(p.api, c.id, 'DRIVERS_LICENSE');
    const last = await submit(c.id);
    expect(last.body.id).toBe(first.body.id);
    if (suffix === '001') expect(last.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] });
    else
      expect(last.body).toMatchObject({
        verificationStatus: 'RESOLVE_ERRORS',
        errors: [{ resourceId: doc.body.id, type: 'POOR_QUALITY_DOCUMENT' }],
      });

    // Every change of the verification was announced; an unchanged re-submission was not.
    const announced = (await eventsOf(p.platformId)).filter((e) => e.body.data.id === first.body.id);
    expect(announced.map((e) => e.type)).toEqual([
      'VERIFICATION.RESOLVE_ERRORS',
      'VERIFICATION.RESOLVE_ERRORS',
      'VERIFICATION.RESOLVE_ERRORS',
      'VERIFICATION.RESOLVE_ERRORS',
      suffix === '001' ? 'VERIFICATION.PENDING_MANUAL_REVIEW' : 'VERIFICATION.RESOLVE_ERRORS',
    ]);
    expect(announced[0].body.data.errors).toHaveLength(6);
  });

  it('lists the missing full name of a customer created without one', async () => {
    const c = await customer({ customerType: 'INDIVIDUAL' });
    const res = await submit(c.id);
    expect(res.body.errors.map((e: { field?: string; type: string }) => e.field ?? e.type)).toEqual([
      'customer.fullName',
      'customer.birthDate',
      'customer.nationality',
      'customer.idType',
      'customer.identifier',
      'customer.address',
      'MISSING_IDENTITY_DOCUMENT',
    ]);
  });
});

describe('contact verification', () => {
  it('a customer with an unverified channel cannot begin KYC (400); once all are VERIFIED it can', async () => {
    const c = await customer(
      complete('Euro Person 001', { region: 'DE', email: 'eu@example.com', phoneNumber: '+4930123456' }),
    );
    await upload(p.api, c.id, 'PASSPORT');
    const res = await submit(c.id);
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.message).toMatch(/email and phone/);
    expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'contactVerification.email',
      'contactVerification.phone',
    ]);
    // The contact-verification endpoints own these transitions; here only the stored state matters.
    await db().customer.update({
      where: { id: c.id },
      data: { contactVerification: { email: 'VERIFIED', phone: 'PENDING' } },
    });
    const phone = await submit(c.id);
    expectError(phone, 400, 'INVALID_INPUT');
    expect(phone.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['contactVerification.phone']);
    await db().customer.update({
      where: { id: c.id },
      data: { contactVerification: { email: 'VERIFIED', phone: 'VERIFIED' } },
    });
    expect((await submit(c.id)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
  });
});
