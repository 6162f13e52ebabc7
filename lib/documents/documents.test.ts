import { beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { address, form, JPEG, PDF, PNG, storedFile, upload } from './testing';

let p: TestPlatform;
let customerId: string;
beforeAll(async () => {
  p = await newPlatform();
  customerId = (await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Doc Holder 003', address }))
    .body.id;
});

it('accepts documents of a beneficial owner', async () => {
  const biz = await p.api.post('/customers', {
    customerType: 'BUSINESS',
    address,
    businessInfo: {
      legalName: 'Owned Inc',
      country: 'US',
      taxId: '1',
      incorporatedOn: '2020-01-01',
      registrationNumber: 'R-003',
    },
  });
  const owner = await p.api.post('/beneficial-owners', {
    customerId: biz.body.id,
    roles: ['UBO'],
    ownershipPercentage: 50,
    personalInfo: {
      firstName: 'Olive',
      lastName: 'Owner',
      birthDate: '1980-05-05',
      nationality: 'US',
      address,
      idType: 'SSN',
      identifier: '123-45-6789',
    },
  });
  const res = await upload(p.api, owner.body.id, 'PASSPORT', { bytes: PNG, name: 'passport.png' });
  expect(res.status, res.text).toBe(201);
  expect(res.body.documentHolder).toBe(owner.body.id);
});

it('replaces a document: new file and metadata, optional fields not sent are cleared', async () => {
  const made = await p.api.post(
    '/documents',
    form({
      documentHolder: customerId,
      documentType: 'NATIONAL_ID',
      side: 'BACK',
      country: 'US',
      documentNumber: 'N1',
      file: { bytes: JPEG, name: 'old.jpg' },
    }),
  );
  const res = await p.api.put(
    `/documents/${made.body.id}`,
    form({
      documentType: 'PASSPORT',
      country: 'CA',
      issuingAuthority: 'Passport Canada',
      file: { bytes: PDF, name: 'new.png' },
    }),
  );
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({
    id: made.body.id,
    documentHolder: customerId,
    documentType: 'PASSPORT',
    country: 'CA',
    issuingAuthority: 'Passport Canada',
    fileName: 'new.png',
  });
  expect(res.body.side).toBeUndefined();
  expect(res.body.documentNumber).toBeUndefined();
  expect(res.body.createdAt).toBe(made.body.createdAt);
  expect((await storedFile(made.body.id)).contentType).toBe('application/pdf');
  const bad = await p.api.put(
    `/documents/${made.body.id}`,
    form({
      documentType: 'PASSPORT',
      country: 'CA',
      file: { bytes: new TextEncoder().encode('text'), name: 'a.jpg' },
    }),
  );
  expectError(bad, 400, 'INVALID_INPUT');
  expectError(
    await p.api.put(`/documents/${made.body.id}`, form({ documentType: 'PASSPORT', country: 'CA' })),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p.api.put(
      '/documents/Document:00000000-0000-0000-0000-000000000000',
      form({ documentType: 'PASSPORT', country: 'CA', file: { bytes: PDF, name: 'a.pdf' } }),
    ),
    404,
    'REFERENCE_NOT_FOUND',
  );
});

it('deletes a document; an unknown one is 404', async () => {
  const made = await upload(p.api, customerId, 'OTHER');
  const del = await p.api.delete(`/documents/${made.body.id}`);
  expect(del.status).toBe(204);
  expect(del.text).toBe('');
  expectError(await p.api.get(`/documents/${made.body.id}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(await p.api.delete(`/documents/${made.body.id}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(await p.api.get('/documents/whatever'), 404, 'REFERENCE_NOT_FOUND');
});

it('keeps a document submitted for verification: replace and delete answer 409', async () => {
  const c = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Review Me 001',
    birthDate: '1990-01-01',
    nationality: 'US',
    idType: 'SSN',
    identifier: '111-22-3333',
    address,
  });
  const doc = await upload(p.api, c.body.id, 'PASSPORT');
  const v = await p.api.post('/verifications', { customerId: c.body.id });
  expect(v.body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
  expectError(await p.api.delete(`/documents/${doc.body.id}`), 409, 'CONFLICT');
  expectError(
    await p.api.put(
      `/documents/${doc.body.id}`,
      form({ documentType: 'PASSPORT', country: 'US', file: { bytes: PDF, name: 'b.pdf' } }),
    ),
    409,
    'CONFLICT',
  );
  expect((await p.api.get(`/documents/${doc.body.id}`)).body.fileName).toBe('doc.pdf');
  // Documents added later are not part of that submission.
  const later = await upload(p.api, c.body.id, 'UTILITY_BILL');
  expect((await p.api.delete(`/documents/${later.body.id}`)).status).toBe(204);
});

it('lists documents newest first, by holder, with pagination', async () => {
  const q = await newPlatform();
  const a = (await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'List A 003' })).body.id;
  const b = (await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'List B 003' })).body.id;
  const ids: string[] = [];
  for (const t of ['PASSPORT', 'NATIONAL_ID', 'SELFIE']) ids.push((await upload(q.api, a, t)).body.id);
  await upload(q.api, b, 'PASSPORT');
  const first = await q.api.get('/documents', { query: { documentHolder: a, limit: 2 } });
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
  const second = await q.api.get('/documents', {
    query: { documentHolder: a, limit: 2, cursor: first.body.nextCursor },
  });
  expect(second.body).toMatchObject({ hasMore: false, totalCount: 3 });
  expect(second.body.nextCursor).toBeUndefined();
  expect([...first.body.data, ...second.body.data].map((d: { id: string }) => d.id)).toEqual([...ids].reverse());
  expect((await q.api.get('/documents')).body.totalCount).toBe(4);
  expect((await q.api.get('/documents', { query: { documentHolder: 'Customer:none' } })).body).toMatchObject({
    data: [],
    totalCount: 0,
    hasMore: false,
  });
  expectError(await q.api.get('/documents', { query: { cursor: 'garbage' } }), 400, 'INVALID_INPUT');
  expectError(await q.api.get('/documents', { query: { limit: 101 } }), 400, 'INVALID_INPUT');
  // Another platform sees none of them.
  expect((await p.api.get('/documents', { query: { documentHolder: a } })).body.totalCount).toBe(0);
});

it('requires MANAGE to write and VIEW to read', async () => {
  const made = await upload(p.api, customerId, 'OTHER');
  const viewer = await p.withPermissions('VIEW');
  expectError(await upload(viewer, customerId, 'PASSPORT'), 403, 'FORBIDDEN');
  expectError(
    await viewer.put(
      `/documents/${made.body.id}`,
      form({ documentType: 'PASSPORT', country: 'US', file: { bytes: PDF, name: 'a.pdf' } }),
    ),
    403,
    'FORBIDDEN',
  );
  expectError(await viewer.delete(`/documents/${made.body.id}`), 403, 'FORBIDDEN');
  expect((await viewer.get(`/documents/${made.body.id}`)).status).toBe(200);
  expect((await viewer.get('/documents')).status).toBe(200);
  const transact = await p.withPermissions('TRANSACT');
  expectError(await transact.get('/documents'), 403, 'FORBIDDEN');
  expectError(await transact.get(`/documents/${made.body.id}`), 403, 'FORBIDDEN');
});
