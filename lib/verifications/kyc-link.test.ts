import { createHash } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});
const person = async (fullName: string, extra: Record<string, unknown> = {}) =>
  (await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName, ...extra })).body;

it('issues a fresh single-use link per call, storing only the token hash, changing no status', async () => {
  const c = await person('Link Person 003');
  const before = Date.now();
  const res = await p.api.post(`/customers/${c.id}/kyc-link`, {
    redirectUri: 'https://app.example.com/kyc/done?x=1',
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.provider).toBe('SUMSUB');
  expect(res.body.token).toBeUndefined();
  const url = new URL(res.body.kycUrl);
  expect(url.searchParams.get('redirect_uri')).toBe('https://app.example.com/kyc/done?x=1');
  const token = url.pathname.split('/').pop()!;
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const lifetime = new Date(res.body.expiresAt).getTime() - before;
  expect(lifetime).toBeGreaterThan(23.9 * 3600_000);
  expect(lifetime).toBeLessThanOrEqual(24 * 3600_000 + 60_000);

  const stored = await db().kycLink.findMany({ where: { customerId: c.id } });
  expect(stored).toHaveLength(1);
  expect(stored[0].tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
  expect(stored[0].redirectUri).toBe('https://app.example.com/kyc/done?x=1');
  expect(JSON.stringify(stored)).not.toContain(token);

  const second = await p.api.post(`/customers/${c.id}/kyc-link`);
  expect(second.status, second.text).toBe(201);
  expect(second.body.kycUrl).not.toBe(res.body.kycUrl);
  expect(new URL(second.body.kycUrl).searchParams.has('redirect_uri')).toBe(false);
  expect((await p.api.get(`/customers/${c.id}`)).body.kycStatus).toBe('UNVERIFIED');
});

it('issues links for businesses too', async () => {
  const biz = await p.api.post('/customers', {
    customerType: 'BUSINESS',
    businessInfo: {
      legalName: 'Linked Inc',
      country: 'US',
      taxId: '1',
      incorporatedOn: '2020-01-01',
      registrationNumber: 'R-003',
    },
  });
  expect((await p.api.post(`/customers/${biz.body.id}/kyc-link`, {})).status).toBe(201);
});

it('refuses a redirectUri that is not an http(s) URI', async () => {
  const c = await person('Redirect 003');
  for (const redirectUri of ['ftp://example.com/x', 'not a uri', 'javascript:alert(1)']) {
    const res = await p.api.post(`/customers/${c.id}/kyc-link`, { redirectUri });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors[0].field).toBe('redirectUri');
  }
  expect((await p.api.post(`/customers/${c.id}/kyc-link`, { redirectUri: 'http://localhost:3000/back' })).status).toBe(
    201,
  );
});

it('answers 409 while contact verification is incomplete', async () => {
  const c = await person('Euro Link 003', { region: 'FR', email: 'fr@example.com', phoneNumber: '+33123456789' });
  const res = await p.api.post(`/customers/${c.id}/kyc-link`);
  expectError(res, 409, 'CONFLICT');
  expect(res.body.details.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
  await db().customer.update({
    where: { id: c.id },
    data: { contactVerification: { email: 'VERIFIED', phone: 'VERIFIED' } },
  });
  expect((await p.api.post(`/customers/${c.id}/kyc-link`)).status).toBe(201);
});

it('answers 404 for unknown or deleted customers and 400 for decided ones', async () => {
  expectError(
    await p.api.post('/customers/Customer:00000000-0000-0000-0000-000000000000/kyc-link'),
    404,
    'USER_NOT_FOUND',
  );
  const gone = await person('Gone Link 003');
  await p.api.delete(`/customers/${gone.id}`);
  expectError(await p.api.post(`/customers/${gone.id}/kyc-link`), 404, 'USER_NOT_FOUND');
  const approved = await person('Approved Link');
  expect(approved.kycStatus).toBe('APPROVED');
  expectError(await p.api.post(`/customers/${approved.id}/kyc-link`), 400, 'INVALID_INPUT');
});

it('replays a request with the same Idempotency-Key', async () => {
  const c = await person('Idem Link 003');
  const key = crypto.randomUUID();
  const a = await p.api.post(`/customers/${c.id}/kyc-link`, {}, { headers: { 'idempotency-key': key } });
  const b = await p.api.post(`/customers/${c.id}/kyc-link`, {}, { headers: { 'idempotency-key': key } });
  expect(b.status).toBe(201);
  expect(b.headers.get('idempotent-replayed')).toBe('true');
  expect(b.body).toEqual(a.body);
  expect(await db().kycLink.count({ where: { customerId: c.id } })).toBe(1);
});

it('requires MANAGE', async () => {
  const c = await person('Perm Link 003');
  const viewer = await p.withPermissions('VIEW');
  expectError(await viewer.post(`/customers/${c.id}/kyc-link`), 403, 'FORBIDDEN');
});
