import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { MAX_FILE_BYTES } from './schema';
import { address, form, JPEG, PDF, PNG, storedFile, upload } from './testing';

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
  expectError(await upload(p.api, 'Customer:00000000-0000-0000-0000-000000000000', 'PASSPORT'), 404, 'USER_NOT_FOUND');
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
