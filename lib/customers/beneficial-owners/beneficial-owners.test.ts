import { beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';

const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const personalInfo = (lastName: string, extra: Record<string, unknown> = {}) => ({
  firstName: 'Pat',
  lastName,
  birthDate: '1980-05-05',
  nationality: 'US',
  address,
  idType: 'SSN',
  identifier: '123-45-6789',
  ...extra,
});
const business = (registrationNumber: string) => ({
  customerType: 'BUSINESS',
  address,
  businessInfo: {
    legalName: 'Acme Corp',
    country: 'US',
    taxId: '12-3456789',
    incorporatedOn: '2015-03-01',
    registrationNumber,
  },
});

let p: TestPlatform;
let businessId: string;
beforeAll(async () => {
  p = await newPlatform();
  businessId = (await p.api.post('/customers', business('REG-003'))).body.id;
});

it('creates an owner UNVERIFIED while the business is undecided, and gets it', async () => {
  const res = await p.api.post('/beneficial-owners', {
    customerId: businessId,
    roles: ['UBO', 'DIRECTOR'],
    ownershipPercentage: 40,
    personalInfo: personalInfo('Smith', {
      middleName: 'Q',
      email: 'pat@example.com',
      phoneNumber: '+14155550100',
      countryOfIssuance: 'US',
    }),
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.id).toMatch(/^BeneficialOwner:[0-9a-f-]{36}$/);
  expect(res.body).toMatchObject({
    customerId: businessId,
    roles: ['UBO', 'DIRECTOR'],
    ownershipPercentage: 40,
    kycStatus: 'UNVERIFIED',
  });
  expect(res.body.personalInfo).toMatchObject({
    firstName: 'Pat',
    lastName: 'Smith',
    middleName: 'Q',
    identifier: '123-45-6789',
  });
  const got = await p.api.get(`/beneficial-owners/${res.body.id}`);
  expect(got.status).toBe(200);
  expect(got.body).toEqual(res.body);
  // The business customer carries its owners.
  const customer = await p.api.get(`/customers/${businessId}`);
  expect(customer.body.beneficialOwners.map((o: { id: string }) => o.id)).toContain(res.body.id);
  const listed = await p.api.get('/customers', { query: { customerType: 'BUSINESS' } });
  expect(listed.body.data.find((c: { id: string }) => c.id === businessId).beneficialOwners).toHaveLength(1);
});

it('validates the request, one error per field', async () => {
  const res = await p.api.post('/beneficial-owners', {
    customerId: businessId,
    roles: ['OWNER'],
    ownershipPercentage: 101,
    personalInfo: {
      firstName: 'X',
      birthDate: '1980-13-01',
      nationality: 'usa',
      address: { line1: 'a' },
      idType: 'PASSPORT',
    },
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
    'ownershipPercentage',
    'personalInfo.address.country',
    'personalInfo.address.postalCode',
    'personalInfo.birthDate',
    'personalInfo.idType',
    'personalInfo.identifier',
    'personalInfo.lastName',
    'personalInfo.nationality',
    'roles[0]',
  ]);
  const empty = await p.api.post('/beneficial-owners', {
    customerId: businessId,
    roles: [],
    ownershipPercentage: 10,
    personalInfo: personalInfo('A'),
  });
  expectError(empty, 400, 'INVALID_INPUT');
  expect(empty.body.details.errors[0].field).toBe('roles');
  const repeated = await p.api.post('/beneficial-owners', {
    customerId: businessId,
    roles: ['UBO', 'UBO'],
    ownershipPercentage: 10,
    personalInfo: personalInfo('A'),
  });
  expectError(repeated, 400, 'INVALID_INPUT');
  expectError(
    await p.api.post('/beneficial-owners', {
      customerId: businessId,
      roles: ['UBO'],
      ownershipPercentage: 12.5,
      personalInfo: personalInfo('A'),
    }),
    400,
    'INVALID_INPUT',
  );
});

it('refuses unknown customers (404), individuals (400) and ownership above 100% (400)', async () => {
  const body = { roles: ['UBO'], ownershipPercentage: 10, personalInfo: personalInfo('Jones') };
  expectError(
    await p.api.post('/beneficial-owners', { ...body, customerId: 'Customer:00000000-0000-0000-0000-000000000000' }),
    404,
    'USER_NOT_FOUND',
  );
  const person = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Solo 003' });
  const indiv = await p.api.post('/beneficial-owners', { ...body, customerId: person.body.id });
  expectError(indiv, 400, 'INVALID_INPUT');
  expect(indiv.body.details.errors[0].field).toBe('customerId');
  const gone = await p.api.post('/customers', business('REG-GONE-003'));
  await p.api.delete(`/customers/${gone.body.id}`);
  expectError(await p.api.post('/beneficial-owners', { ...body, customerId: gone.body.id }), 404, 'USER_NOT_FOUND');

  const full = (await p.api.post('/customers', business('REG-FULL-003'))).body.id;
  expect((await p.api.post('/beneficial-owners', { ...body, customerId: full, ownershipPercentage: 70 })).status).toBe(
    201,
  );
  const over = await p.api.post('/beneficial-owners', { ...body, customerId: full, ownershipPercentage: 31 });
  expectError(over, 400, 'INVALID_INPUT');
  expect(over.body.details.errors[0].field).toBe('ownershipPercentage');
  expect((await p.api.post('/beneficial-owners', { ...body, customerId: full, ownershipPercentage: 30 })).status).toBe(
    201,
  );
});

it('updates only the given fields; personal details merge', async () => {
  const made = await p.api.post('/beneficial-owners', {
    customerId: businessId,
    roles: ['UBO'],
    ownershipPercentage: 25,
    personalInfo: personalInfo('Brown', { email: 'b@example.com' }),
  });
  const id = made.body.id;
  const res = await p.api.patch(`/beneficial-owners/${id}`, {
    roles: ['CONTROL_PERSON'],
    personalInfo: { firstName: 'Robin', address: { ...address, city: 'Chicago' } },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ roles: ['CONTROL_PERSON'], ownershipPercentage: 25, kycStatus: 'UNVERIFIED' });
  expect(res.body.personalInfo).toMatchObject({
    firstName: 'Robin',
    lastName: 'Brown',
    email: 'b@example.com',
    address: { city: 'Chicago' },
  });
  expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(made.body.updatedAt).getTime());
  const pct = await p.api.patch(`/beneficial-owners/${id}`, { ownershipPercentage: 30 });
  expect(pct.body.ownershipPercentage).toBe(30);
  expect((await p.api.patch(`/beneficial-owners/${id}`, {})).status).toBe(200);

  const bad = await p.api.patch(`/beneficial-owners/${id}`, {
    ownershipPercentage: -1,
    personalInfo: { birthDate: 'yesterday', lastName: null },
  });
  expectError(bad, 400, 'INVALID_INPUT');
  expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
    'ownershipPercentage',
    'personalInfo.birthDate',
    'personalInfo.lastName',
  ]);
  // Smith holds 40%: raising this owner to 61% would take the business past 100%.
  expectError(await p.api.patch(`/beneficial-owners/${id}`, { ownershipPercentage: 61 }), 400, 'INVALID_INPUT');
  expectError(
    await p.api.patch('/beneficial-owners/BeneficialOwner:00000000-0000-0000-0000-000000000000', { roles: ['UBO'] }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await p.api.get('/beneficial-owners/nope'), 404, 'REFERENCE_NOT_FOUND');
});

it('lists the owners of a business, newest first, with pagination', async () => {
  const q = await newPlatform();
  const biz = (await q.api.post('/customers', business('REG-LIST-003'))).body.id;
  const other = (await q.api.post('/customers', business('REG-OTHER-003'))).body.id;
  const ids: string[] = [];
  for (const name of ['One', 'Two', 'Three'])
    ids.push(
      (
        await q.api.post('/beneficial-owners', {
          customerId: biz,
          roles: ['DIRECTOR'],
          ownershipPercentage: 0,
          personalInfo: personalInfo(name),
        })
      ).body.id,
    );
  await q.api.post('/beneficial-owners', {
    customerId: other,
    roles: ['UBO'],
    ownershipPercentage: 100,
    personalInfo: personalInfo('Else'),
  });
  const first = await q.api.get('/beneficial-owners', { query: { customerId: biz, limit: 2 } });
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
  const second = await q.api.get('/beneficial-owners', {
    query: { customerId: biz, limit: 2, cursor: first.body.nextCursor },
  });
  expect(second.body).toMatchObject({ hasMore: false, totalCount: 3 });
  expect([...first.body.data, ...second.body.data].map((o: { id: string }) => o.id)).toEqual([...ids].reverse());
  const missing = await q.api.get('/beneficial-owners');
  expectError(missing, 400, 'INVALID_INPUT');
  expect(missing.body.details.errors[0].field).toBe('customerId');
  expectError(
    await q.api.get('/beneficial-owners', { query: { customerId: 'Customer:00000000-0000-0000-0000-000000000000' } }),
    404,
    'USER_NOT_FOUND',
  );
  // Another platform cannot read them.
  expectError(await p.api.get('/beneficial-owners', { query: { customerId: biz } }), 404, 'USER_NOT_FOUND');
  expectError(await p.api.get(`/beneficial-owners/${ids[0]}`), 404, 'REFERENCE_NOT_FOUND');
});

it('requires MANAGE to write and VIEW to read', async () => {
  const made = await p.api.post('/beneficial-owners', {
    customerId: businessId,
    roles: ['COMPANY_OFFICER'],
    ownershipPercentage: 0,
    personalInfo: personalInfo('Perm'),
  });
  const viewer = await p.withPermissions('VIEW');
  expectError(
    await viewer.post('/beneficial-owners', {
      customerId: businessId,
      roles: ['UBO'],
      ownershipPercentage: 1,
      personalInfo: personalInfo('V'),
    }),
    403,
    'FORBIDDEN',
  );
  expectError(await viewer.patch(`/beneficial-owners/${made.body.id}`, { roles: ['UBO'] }), 403, 'FORBIDDEN');
  expect((await viewer.get(`/beneficial-owners/${made.body.id}`)).status).toBe(200);
  expect((await viewer.get('/beneficial-owners', { query: { customerId: businessId } })).status).toBe(200);
  const transact = await p.withPermissions('TRANSACT');
  expectError(await transact.get(`/beneficial-owners/${made.body.id}`), 403, 'FORBIDDEN');
  expectError(await transact.get('/beneficial-owners', { query: { customerId: businessId } }), 403, 'FORBIDDEN');
});
