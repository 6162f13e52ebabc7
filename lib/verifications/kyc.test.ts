import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { eventsOf } from '@/lib/events/outbox';
import { runAs } from '@/lib/core/context';
import { answerOf, expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { upload } from '@/lib/documents/testing';
import { decideReview } from './service';

// KYC of individuals: the sandbox table (last 3 characters of fullName) row by row, the
// completeness rules, contact verification, manual review, listing and permissions.
const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const complete = (fullName: string, extra: Record<string, unknown> = {}) => ({
  customerType: 'INDIVIDUAL',
  fullName,
  birthDate: '1990-01-15',
  nationality: 'US',
  idType: 'SSN',
  identifier: '123-45-6789',
  address,
  ...extra,
});

type Event = Awaited<ReturnType<typeof eventsOf>>[number];
const about = (events: Event[], id: string) =>
  events.filter((e) => e.body.data.id === id || e.body.data.customerId === id).map((e) => e.type);

describe('KYC verification of individuals', () => {
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
      expect(about(events, c.id)).toEqual(['CUSTOMER.KYC_PENDING', 'VERIFICATION.PENDING_MANUAL_REVIEW']);
      expect(
        events.find((e) => e.type === 'VERIFICATION.PENDING_MANUAL_REVIEW' && e.body.data.id === res.body.id)!.body
          .data,
      ).toEqual(res.body);
      // Under review a re-submission changes nothing and announces nothing.
      const again = await submit(c.id);
      expect(again.body).toEqual(res.body);
      expect(about(await eventsOf(p.platformId), c.id)).toHaveLength(2);
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
      expect(about(await eventsOf(p.platformId), c.id)).toEqual(['VERIFICATION.RESOLVE_ERRORS']);
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
      if (suffix === '001')
        expect(last.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] });
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

  describe('manual review', () => {
    it.each([
      ['APPROVED', 'CUSTOMER.KYC_APPROVED'],
      ['REJECTED', 'CUSTOMER.KYC_REJECTED'],
    ] as const)(
      'a reviewer decision %s becomes the customer kycStatus; then POST /verifications → 400',
      async (decision, event) => {
        const c = await customer(complete(`Reviewed ${decision} 001`));
        await upload(p.api, c.id, 'PASSPORT');
        const v = (await submit(c.id)).body;
        const decided = await runAs({ kind: 'system', platformId: p.platformId, clockOffsetMs: 0n }, () =>
          decideReview(p.platformId, v.id, decision),
        );
        expect(decided).toMatchObject({ id: v.id, verificationStatus: decision, errors: [] });
        expect((await p.api.get(`/verifications/${v.id}`)).body.verificationStatus).toBe(decision);
        const shown = await p.api.get(`/customers/${c.id}`);
        expect(shown.body.kycStatus).toBe(decision);
        const events = await eventsOf(p.platformId);
        expect(about(events, c.id).slice(-2)).toEqual([`VERIFICATION.${decision}`, event]);
        expect(events.find((e) => e.type === event && e.body.data.id === c.id)!.body.data).toMatchObject({
          id: c.id,
          kycStatus: decision,
          customerType: 'INDIVIDUAL',
        });
        expectError(await submit(c.id), 400, 'INVALID_INPUT');
        // A decided verification cannot be decided again.
        await expect(decideReview(p.platformId, v.id, 'APPROVED').catch(answerOf)).resolves.toMatchObject({
          code: 'INVALID_STATE_TRANSITION',
          status: 409,
        });
      },
    );

    it('only a verification in PENDING_MANUAL_REVIEW can be decided', async () => {
      const c = await customer({ customerType: 'INDIVIDUAL', fullName: 'Not Ready 003' });
      const v = (await submit(c.id)).body;
      await expect(decideReview(p.platformId, v.id, 'APPROVED')).rejects.toMatchObject({
        code: 'INVALID_STATE_TRANSITION',
      });
      await expect(decideReview(p.platformId, 'Verification:nope', 'APPROVED')).rejects.toMatchObject({
        code: 'REFERENCE_NOT_FOUND',
      });
    });
  });

  it('concurrent submissions create one verification; concurrent decisions: one wins, the other is 409', async () => {
    const c = await customer(complete('Race Person 001'));
    await upload(p.api, c.id, 'PASSPORT');
    const results = await Promise.all(Array.from({ length: 5 }, () => submit(c.id)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await p.api.get('/verifications', { query: { customerId: c.id } })).body.totalCount).toBe(1);
    expect(
      about(await eventsOf(p.platformId), c.id).filter((t) => t === 'VERIFICATION.PENDING_MANUAL_REVIEW'),
    ).toHaveLength(1);

    const decisions = await Promise.allSettled([
      decideReview(p.platformId, results[0].body.id, 'APPROVED'),
      decideReview(p.platformId, results[0].body.id, 'REJECTED'),
    ]);
    expect(decisions.filter((d) => d.status === 'fulfilled')).toHaveLength(1);
    expect(decisions.find((d) => d.status === 'rejected')).toMatchObject({
      reason: { code: 'INVALID_STATE_TRANSITION' },
    });
    const winner = (
      decisions.find((d) => d.status === 'fulfilled') as PromiseFulfilledResult<{ verificationStatus: string }>
    ).value.verificationStatus;
    expect((await p.api.get(`/customers/${c.id}`)).body.kycStatus).toBe(winner);
    expect(
      about(await eventsOf(p.platformId), c.id).filter(
        (t) => t.startsWith('CUSTOMER.KYC_') && t !== 'CUSTOMER.KYC_PENDING',
      ),
    ).toEqual([`CUSTOMER.KYC_${winner}`]);
  });

  it('answers 404 for unknown and deleted customers and 400 for a malformed body', async () => {
    expectError(await submit('Customer:00000000-0000-0000-0000-000000000000'), 404, 'USER_NOT_FOUND');
    const gone = await customer({ customerType: 'INDIVIDUAL', fullName: 'Gone 003' });
    await p.api.delete(`/customers/${gone.id}`);
    expectError(await submit(gone.id), 404, 'USER_NOT_FOUND');
    const bad = await p.api.post('/verifications', {});
    expectError(bad, 400, 'INVALID_INPUT');
    expect(bad.body.details.errors[0].field).toBe('customerId');
  });

  it("gets a verification; unknown ones and other platforms' are 404", async () => {
    const c = await customer({ customerType: 'INDIVIDUAL', fullName: 'Fetch Me 003' });
    const v = (await submit(c.id)).body;
    const got = await p.api.get(`/verifications/${v.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(v);
    expectError(
      await p.api.get('/verifications/Verification:00000000-0000-0000-0000-000000000000'),
      404,
      'REFERENCE_NOT_FOUND',
    );
    const q = await newPlatform();
    expectError(await q.api.get(`/verifications/${v.id}`), 404, 'REFERENCE_NOT_FOUND');
    expectError(await q.api.post('/verifications', { customerId: c.id }), 404, 'USER_NOT_FOUND');
  });

  it('lists verifications newest first, filtered by customer and status, with pagination', async () => {
    const q = await newPlatform();
    const ids: string[] = [];
    for (const name of ['L1 003', 'L2 003', 'L3 001']) {
      const c = (await q.api.post('/customers', complete(name))).body.id;
      if (name.endsWith('001')) await upload(q.api, c, 'PASSPORT');
      ids.push((await q.api.post('/verifications', { customerId: c })).body.id);
    }
    const first = await q.api.get('/verifications', { query: { limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
    const second = await q.api.get('/verifications', { query: { limit: 2, cursor: first.body.nextCursor } });
    expect(second.body).toMatchObject({ hasMore: false, totalCount: 3 });
    expect([...first.body.data, ...second.body.data].map((v: { id: string }) => v.id)).toEqual([...ids].reverse());
    const pending = await q.api.get('/verifications', { query: { verificationStatus: 'PENDING_MANUAL_REVIEW' } });
    expect(pending.body.data.map((v: { id: string }) => v.id)).toEqual([ids[2]]);
    expect(
      (await q.api.get('/verifications', { query: { verificationStatus: 'RESOLVE_ERRORS' } })).body.totalCount,
    ).toBe(2);
    const one = await q.api.get('/verifications', { query: { customerId: first.body.data[1].customerId } });
    expect(one.body.data.map((v: { id: string }) => v.id)).toEqual([first.body.data[1].id]);
    const bad = await q.api.get('/verifications', { query: { verificationStatus: 'DONE' } });
    expectError(bad, 400, 'INVALID_INPUT');
    expect(bad.body.details.errors[0]).toMatchObject({
      field: 'verificationStatus',
      constraint: { enum: expect.arrayContaining(['RESOLVE_ERRORS']) },
    });
    expect(
      (await p.api.get('/verifications', { query: { customerId: first.body.data[0].customerId } })).body.totalCount,
    ).toBe(0);
  });

  it('requires MANAGE to submit and VIEW to read', async () => {
    const c = await customer({ customerType: 'INDIVIDUAL', fullName: 'Perm 003' });
    const v = (await submit(c.id)).body;
    const viewer = await p.withPermissions('VIEW');
    expectError(await viewer.post('/verifications', { customerId: c.id }), 403, 'FORBIDDEN');
    expect((await viewer.get(`/verifications/${v.id}`)).status).toBe(200);
    expect((await viewer.get('/verifications')).status).toBe(200);
    const transact = await p.withPermissions('TRANSACT');
    expectError(await transact.get('/verifications'), 403, 'FORBIDDEN');
    expectError(await transact.get(`/verifications/${v.id}`), 403, 'FORBIDDEN');
  });

  describe('outside sandbox (no KYC vendor)', () => {
    afterEach(() => {
      process.env.CORRIDOR_MODE = 'sandbox';
    });

    it('names decide nothing: customers start UNVERIFIED and complete submissions wait for manual review', async () => {
      process.env.CORRIDOR_MODE = 'production';
      const c = await customer(complete('Ada Lovelace'));
      expect(c.kycStatus).toBe('UNVERIFIED');
      await upload(p.api, c.id, 'PASSPORT');
      const v = await submit(c.id);
      expect(v.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] });
      expect((await p.api.get(`/customers/${c.id}`)).body.kycStatus).toBe('PENDING');
      expect(about(await eventsOf(p.platformId), c.id)).toEqual([
        'VERIFICATION.PENDING_MANUAL_REVIEW',
        'CUSTOMER.KYC_PENDING',
      ]);
      const poor = await customer(complete('Ada Lovelace 003'));
      await upload(p.api, poor.id, 'PASSPORT');
      expect((await submit(poor.id)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    });
  });
});
