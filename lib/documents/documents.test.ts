import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { MAX_FILE_BYTES } from './schema';
import { form, JPEG, PDF, PNG, upload } from './testing';

const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };

async function storedFile(id: string) {
  return db().document.findUniqueOrThrow({
    where: { id },
    select: { contentType: true, size: true, content: true, fileName: true },
  });
}

describe('documents', () => {
  let p: TestPlatform;
  let customerId: string;
  beforeAll(async () => {
    p = await newPlatform();
    customerId = (await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Doc Holder 003', address }))
      .body.id;
  });

  it('uploads a document with its metadata and keeps the file in the database', async () => {
    const res = await p.api.post(
      '/documents',
      form({
        documentHolder: customerId,
        documentType: 'DRIVERS_LICENSE',
        side: 'FRONT',
        country: 'US',
        documentNumber: 'D1234567',
        issuingAuthority: 'Illinois SOS',
        file: { bytes: JPEG, name: 'license.jpg', type: 'image/jpeg' },
      }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      documentHolder: customerId,
      documentType: 'DRIVERS_LICENSE',
      side: 'FRONT',
      country: 'US',
      documentNumber: 'D1234567',
      issuingAuthority: 'Illinois SOS',
      fileName: 'license.jpg',
    });
    expect(res.body.id).toMatch(/^Document:[0-9a-f-]{36}$/);
    const stored = await storedFile(res.body.id);
    expect(stored.contentType).toBe('image/jpeg');
    expect(Buffer.from(stored.content)).toEqual(Buffer.from(JPEG));
    const got = await p.api.get(`/documents/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  describe('recognises the file by its content, not its name or declared type', () => {
    it.each([
      ['PDF bytes named .png and declared image/png', PDF, 'scan.png', 'image/png', 'application/pdf'],
      ['PNG bytes named .pdf', PNG, 'scan.pdf', 'application/pdf', 'image/png'],
      ['JPEG bytes with no extension', JPEG, 'scan', 'application/octet-stream', 'image/jpeg'],
    ])('accepts %s', async (_what, bytes, name, type, detected) => {
      const res = await upload(p.api, customerId, 'PASSPORT', { bytes, name, type });
      expect(res.status, res.text).toBe(201);
      expect(res.body.fileName).toBe(name);
      expect((await storedFile(res.body.id)).contentType).toBe(detected);
    });

    it.each([
      ['a text file named .jpg', new TextEncoder().encode('hello, I am not a picture'), 'photo.jpg', 'image/jpeg'],
      ['an HTML file named .pdf', new TextEncoder().encode('<html>%PDF-1.4</html>'), 'doc.pdf', 'application/pdf'],
      ['a GIF named .png', new TextEncoder().encode('GIF89a\x01\x00'), 'img.png', 'image/png'],
    ])('refuses %s', async (_what, bytes, name, type) => {
      const res = await upload(p.api, customerId, 'PASSPORT', { bytes, name, type });
      expectError(res, 400, 'INVALID_INPUT');
      expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'file' })]);
    });
  });

  it('refuses an empty file, a missing file and a file over 10 MiB', async () => {
    const empty = await upload(p.api, customerId, 'PASSPORT', { bytes: new Uint8Array(), name: 'empty.pdf' });
    expectError(empty, 400, 'INVALID_INPUT');
    expect(empty.body.details.errors[0].field).toBe('file');
    const missing = await p.api.post(
      '/documents',
      form({ documentHolder: customerId, documentType: 'PASSPORT', country: 'US' }),
    );
    expectError(missing, 400, 'INVALID_INPUT');
    expect(missing.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['file']);
    const notAFile = await p.api.post(
      '/documents',
      form({ documentHolder: customerId, documentType: 'PASSPORT', country: 'US', file: '%PDF-1.4 as text' }),
    );
    expectError(notAFile, 400, 'INVALID_INPUT');

    const big = new Uint8Array(MAX_FILE_BYTES + 1);
    big.set(PDF);
    const tooBig = await upload(p.api, customerId, 'PASSPORT', { bytes: big, name: 'big.pdf' });
    expectError(tooBig, 400, 'INVALID_INPUT');
    expect(tooBig.body.details.errors[0]).toMatchObject({ field: 'file', message: expect.stringContaining('10 MiB') });
    // Exactly 10 MiB is accepted.
    const limit = await upload(p.api, customerId, 'OTHER', {
      bytes: big.subarray(0, MAX_FILE_BYTES),
      name: 'limit.pdf',
    });
    expect(limit.status, limit.text).toBe(201);
    expect((await storedFile(limit.body.id)).size).toBe(MAX_FILE_BYTES);
    await p.api.delete(`/documents/${limit.body.id}`);
    // Far over the limit the body reader stops reading.
    const huge = await upload(p.api, customerId, 'PASSPORT', {
      bytes: new Uint8Array(13 * 1024 * 1024),
      name: 'huge.pdf',
    });
    expectError(huge, 400, 'INVALID_INPUT');
  });

  it('validates the form fields, one error per field', async () => {
    const res = await p.api.post(
      '/documents',
      form({ documentType: 'LIBRARY_CARD', country: 'usa', side: 'TOP', file: { bytes: PDF, name: 'x.pdf' } }),
    );
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'country',
      'documentHolder',
      'documentType',
      'side',
    ]);
    expect(res.body.details.errors.find((e: { field: string }) => e.field === 'side').constraint).toEqual({
      enum: ['FRONT', 'BACK'],
    });
    // Empty optional fields from an HTML form mean "not given".
    const blank = await p.api.post(
      '/documents',
      form({
        documentHolder: customerId,
        documentType: 'PASSPORT',
        country: 'US',
        side: '',
        documentNumber: '',
        file: { bytes: PDF, name: 'p.pdf' },
      }),
    );
    expect(blank.status, blank.text).toBe(201);
    expect(blank.body.side).toBeUndefined();
    expect(blank.body.documentNumber).toBeUndefined();
    // JSON is not accepted here.
    expectError(
      await p.api.post('/documents', { documentHolder: customerId, documentType: 'PASSPORT', country: 'US' }),
      400,
      'INVALID_INPUT',
    );
  });

  it('answers 404 for an unknown or deleted holder', async () => {
    expectError(
      await upload(p.api, 'Customer:00000000-0000-0000-0000-000000000000', 'PASSPORT'),
      404,
      'USER_NOT_FOUND',
    );
    expectError(await upload(p.api, 'nonsense', 'PASSPORT'), 404, 'USER_NOT_FOUND');
    expectError(
      await upload(p.api, 'BeneficialOwner:00000000-0000-0000-0000-000000000000', 'PASSPORT'),
      404,
      'REFERENCE_NOT_FOUND',
    );
    const gone = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Gone 003' });
    await p.api.delete(`/customers/${gone.body.id}`);
    expectError(await upload(p.api, gone.body.id, 'PASSPORT'), 404, 'USER_NOT_FOUND');
    // Another platform's customer is unknown here.
    const q = await newPlatform();
    expectError(await upload(q.api, customerId, 'PASSPORT'), 404, 'USER_NOT_FOUND');
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
});
