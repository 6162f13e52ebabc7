import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { runAs } from '@/lib/core/context';
import { answerOf, expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { upload } from '@/lib/documents/testing';
import { decideReview } from './service';
import { complete, eventTypesAbout } from './testing';
import { switchMode } from '@/tests/support/mode';

// KYC of individuals: manual review, concurrent submissions and decisions, reading, listing,
// permissions, and the rules outside sandbox.

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
      const decided = await runAs(
        { kind: 'system', platformId: p.platformId, clockOffsetMs: 0n, clockFrozenAt: null },
        () => decideReview(p.platformId, v.id, decision),
      );
      expect(decided).toMatchObject({ id: v.id, verificationStatus: decision, errors: [] });
      expect((await p.api.get(`/verifications/${v.id}`)).body.verificationStatus).toBe(decision);
      const shown = await p.api.get(`/customers/${c.id}`);
      expect(shown.body.kycStatus).toBe(decision);
      const events = await eventsOf(p.platformId);
      expect(eventTypesAbout(events, c.id).slice(-2)).toEqual([`VERIFICATION.${decision}`, event]);
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
    eventTypesAbout(await eventsOf(p.platformId), c.id).filter((t) => t === 'VERIFICATION.PENDING_MANUAL_REVIEW'),
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
    eventTypesAbout(await eventsOf(p.platformId), c.id).filter(
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
  expect((await q.api.get('/verifications', { query: { verificationStatus: 'RESOLVE_ERRORS' } })).body.totalCount).toBe(
    2,
  );
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
    switchMode('sandbox');
  });

  it('names decide nothing: customers start UNVERIFIED and complete submissions wait for manual review', async () => {
    switchMode('production');
    const c = await customer(complete('Ada Lovelace'));
    expect(c.kycStatus).toBe('UNVERIFIED');
    await upload(p.api, c.id, 'PASSPORT');
    const v = await submit(c.id);
    expect(v.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] });
    expect((await p.api.get(`/customers/${c.id}`)).body.kycStatus).toBe('PENDING');
    expect(eventTypesAbout(await eventsOf(p.platformId), c.id)).toEqual([
      'VERIFICATION.PENDING_MANUAL_REVIEW',
      'CUSTOMER.KYC_PENDING',
    ]);
    const poor = await customer(complete('Ada Lovelace 003'));
    await upload(p.api, poor.id, 'PASSPORT');
    expect((await submit(poor.id)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
  });
});
