import { afterEach, beforeAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { eventsOf } from '@/lib/events/outbox';
import { runDueJobs } from '@/lib/jobs/queue';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { checkResponse } from '@/tests/support/conformance';
import { tuning } from './job';
import { DOMAIN, HEADER, customerByRef, file, person, upload } from './testing';

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform({ embeddedWallet: false });
});
afterEach(() => {
  tuning.rowsPerRun = 500;
});

// A business and two individuals, with a BOM, quoted commas and quotes, and a mixed-case address.
const BUSINESS_HEADER =
  'umaAddress,platformCustomerId,customerType,businessLegalName,businessTaxId,businessRegistrationNumber,businessIncorporatedOn,addressLine1,addressLine2,city,state,postalCode,country,fullName,birthDate,email,platformAccountId,description';
const CLEAN_FILE =
  '\uFEFF' +
  file(
    BUSINESS_HEADER,
    `$acme@${DOMAIN},biz-1,BUSINESS,"Acme, Inc.",12-3456789,REG-1,2015-03-01,400 Commerce Way,"Suite ""B""",Austin,TX,78701,US,,,,acct-9,first customer`,
    `ada@${DOMAIN},ind-1,INDIVIDUAL,,,,,"1 Main St",,Springfield,IL,62701,US,"Lovelace, Ada",1990-01-15,ada@example.com,,`,
    `$Grace@${DOMAIN},ind-2,INDIVIDUAL,,,,,2 Main St,,Springfield,IL,62701,US,Grace Hopper,1985-12-09,,,`,
  );

it('imports a clean file in the background and announces completion', async () => {
  const res = await upload(p.api, CLEAN_FILE);
  expect(res.status, res.text).toBe(202);
  expect(res.body).toEqual({
    jobId: expect.stringMatching(/^BulkCustomerImportJob:[0-9a-f-]{36}$/),
    status: 'PENDING',
  });
  const jobId = res.body.jobId;

  const before = await p.api.get(`/customers/bulk/jobs/${jobId}`);
  expect(before.status).toBe(200);
  expect(before.body).toEqual({
    id: jobId,
    status: 'PENDING',
    progress: { total: 3, processed: 0, successful: 0, failed: 0 },
    errors: [],
  });
  expect((await customerByRef(p, 'biz-1')).totalCount).toBe(0); // nothing happens until the job runs
  expect(
    await db().job.count({ where: { platformId: p.platformId, kind: 'BULK_CUSTOMER_IMPORT', state: 'PENDING' } }),
  ).toBe(1);
  expect(await db().bulkCustomerImportRow.count({ where: { importId: jobId, status: 'PENDING' } })).toBe(3);

  await runDueJobs({ platformId: p.platformId });
  const done = await p.api.get(`/customers/bulk/jobs/${jobId}`);
  expect(done.body).toMatchObject({
    id: jobId,
    status: 'COMPLETED',
    progress: { total: 3, processed: 3, successful: 3, failed: 0 },
    errors: [],
  });
  expect(Date.parse(done.body.completedAt)).not.toBeNaN();

  const biz = (await customerByRef(p, 'biz-1')).data[0];
  expect(biz).toMatchObject({
    customerType: 'BUSINESS',
    umaAddress: `$acme@${DOMAIN}`,
    kybStatus: 'UNVERIFIED',
    address: {
      line1: '400 Commerce Way',
      line2: 'Suite "B"',
      city: 'Austin',
      state: 'TX',
      postalCode: '78701',
      country: 'US',
    },
    businessInfo: {
      legalName: 'Acme, Inc.',
      taxId: '12-3456789',
      registrationNumber: 'REG-1',
      incorporatedOn: '2015-03-01',
      country: 'US',
    },
  });
  const ada = (await customerByRef(p, 'ind-1')).data[0];
  expect(ada).toMatchObject({
    customerType: 'INDIVIDUAL',
    fullName: 'Lovelace, Ada',
    birthDate: '1990-01-15',
    email: 'ada@example.com',
    umaAddress: `$ada@${DOMAIN}`,
    kycStatus: 'APPROVED',
  });
  expect((await customerByRef(p, 'ind-2')).data[0]).toMatchObject({
    umaAddress: `$grace@${DOMAIN}`,
    fullName: 'Grace Hopper',
  });

  const events = await eventsOf(p.platformId, 'BULK_UPLOAD.COMPLETED');
  expect(events).toHaveLength(1);
  expect(events[0].body.data).toEqual(done.body);
  expect(checkResponse('GET', '/customers/bulk/jobs/{jobId}', 200, events[0].body.data)).toBe(true);
  // Running the queue again changes nothing.
  expect(await runDueJobs({ platformId: p.platformId })).toBe(0);
  expect(await eventsOf(p.platformId, 'BULK_UPLOAD.COMPLETED')).toHaveLength(1);
});

it('reports bad rows one by one and still creates the good ones', async () => {
  await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Taken',
    platformCustomerId: 'taken-ref',
    umaAddress: `$taken@${DOMAIN}`,
  });
  const text = file(
    HEADER,
    person('good-1'),
    `$nobirth@${DOMAIN},bad-1,INDIVIDUAL,No Birth,,1 Main St,Springfield,IL,62701,US,`,
    `$badmail@${DOMAIN},bad-2,INDIVIDUAL,Bad Mail,1990-02-30,1 Main St,Springfield,IL,62701,usa,not-an-email`,
    person('taken-ref'),
    `$taken@${DOMAIN},bad-4,INDIVIDUAL,Uma Clash,1990-01-15,1 Main St,Springfield,IL,62701,US,`,
    `$x@other.example,bad-5,INDIVIDUAL,Other Domain,1990-01-15,1 Main St,Springfield,IL,62701,US,`,
    `$robot@${DOMAIN},,ROBOT,,,,,,,,`,
    '',
    person('good-2'),
  );
  const res = await upload(p.api, text);
  expect(res.status, res.text).toBe(202);
  await runDueJobs({ platformId: p.platformId });
  const job = (await p.api.get(`/customers/bulk/jobs/${res.body.jobId}`)).body;
  expect(job).toMatchObject({ status: 'COMPLETED', progress: { total: 8, processed: 8, successful: 2, failed: 6 } });
  const byRow = Object.fromEntries(job.errors.map((e: { details: { row: number } }) => [e.details.row, e]));
  expect(Object.keys(byRow).map(Number)).toEqual([3, 4, 5, 6, 7, 8]);
  expect(byRow[3]).toMatchObject({
    correlationId: 'bad-1',
    code: 'INVALID_INPUT',
    details: { field: 'birthDate', errors: [{ field: 'birthDate', message: 'is required' }] },
  });
  expect(byRow[3].message).toMatch(/^Row 3: birthDate is required/);
  expect(byRow[4].details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
    'birthDate',
    'country',
    'email',
  ]);
  expect(byRow[5]).toMatchObject({
    correlationId: 'taken-ref',
    code: 'CONFLICT',
    details: { field: 'platformCustomerId' },
  });
  expect(byRow[6]).toMatchObject({
    correlationId: 'bad-4',
    code: 'UMA_ADDRESS_EXISTS',
    details: { field: 'umaAddress' },
  });
  expect(byRow[7]).toMatchObject({ correlationId: 'bad-5', code: 'INVALID_INPUT', details: { field: 'umaAddress' } });
  expect(byRow[8]).toMatchObject({ correlationId: 'row_8', code: 'INVALID_INPUT' });
  expect(byRow[8].details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
    'customerType',
    'platformCustomerId',
  ]);
  // The blank line 9 is skipped but counted, so the last row keeps its place in the file.
  expect((await customerByRef(p, 'good-2')).totalCount).toBe(1);
  expect((await customerByRef(p, 'good-1')).totalCount).toBe(1);
});

it('refuses malformed files and headers with 400, storing nothing', async () => {
  const q = await newPlatform({ embeddedWallet: false });
  const cases: [string | Uint8Array, RegExp, string][] = [
    ['', /empty/, 'file'],
    [file(HEADER), /no customer rows/, 'file'],
    [file('', ''), /no header row/, 'file'],
    [
      file(HEADER, `$a@${DOMAIN},a,INDIVIDUAL,"Unclosed,1990-01-15`),
      /Malformed CSV: CSV line 2: a quoted field is not closed/,
      'file',
    ],
    [
      file(HEADER, `$a@${DOMAIN},a,INDIVIDUAL,Bad"Quote,1990-01-15,1 Main St,Springfield,IL,62701,US,`),
      /quote inside an unquoted field/,
      'file',
    ],
    [
      file('umaAddress,customerType,fullName', `$a@${DOMAIN},INDIVIDUAL,A`),
      /lacks required column\(s\): platformCustomerId/,
      'file.header',
    ],
    [
      file(HEADER + ',favouriteColour', person('a') + ',blue'),
      /Unknown column\(s\) in the header row: favouriteColour/,
      'file.header',
    ],
    [file(HEADER + ',,', person('a')), /Unknown column\(s\).*\(empty\)/, 'file.header'],
    [file(HEADER + ',FULLNAME', person('a') + ',x'), /names column fullName twice/, 'file.header'],
    [file(HEADER, person('a') + ',extra'), /Row 2 has 12 fields but the header names 11 columns/, 'file.row[2]'],
    [new Uint8Array([0x75, 0x6d, 0x61, 0xff, 0xfe, 0x0a]), /not valid UTF-8/, 'file'],
    [file(HEADER, person('a')).replace('Springfield', 'Spring\u0000field'), /NUL/, 'file'],
    [
      HEADER + '\r\n' + Array.from({ length: 10_001 }, (_, i) => person(`r${i}`)).join('\r\n'),
      /more than 10000 customer rows/,
      'file',
    ],
  ];
  for (const [content, message, field] of cases) {
    const res = await upload(q.api, content);
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.message).toMatch(message);
    expect(res.body.details.errors[0].field).toBe(field);
  }
  const big = new Uint8Array(5 * 1024 * 1024 + 1).fill(0x61);
  const tooBig = await upload(q.api, big);
  expectError(tooBig, 400, 'INVALID_INPUT');
  expect(tooBig.body.message).toMatch(/larger than the 5 MiB limit/);

  const noFile = new FormData();
  noFile.append('file', 'just text, not a file');
  const notFile = await q.api.post('/customers/bulk/csv', noFile);
  expectError(notFile, 400, 'INVALID_INPUT');
  expect(notFile.body.details.errors[0]).toMatchObject({ field: 'file' });
  expectError(await q.api.post('/customers/bulk/csv', new FormData()), 400, 'INVALID_INPUT');
  expectError(await q.api.post('/customers/bulk/csv', { file: HEADER }), 400, 'INVALID_INPUT');

  expect(await db().bulkCustomerImport.count({ where: { platformId: q.platformId } })).toBe(0);
  expect(await db().job.count({ where: { platformId: q.platformId } })).toBe(0);
});

it('accepts the reference example layout (short rows are padded)', async () => {
  const q = await newPlatform({ embeddedWallet: false });
  const text = file(
    'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,platformAccountId,businessLegalName',
    `john.doe@${DOMAIN},customer123,INDIVIDUAL,John Doe,1990-01-15,123 Main St,San Francisco,CA,94105,US`,
    `acme@${DOMAIN},biz456,BUSINESS,,,400 Commerce Way,Austin,TX,78701,US`,
  );
  const res = await upload(q.api, text);
  expect(res.status, res.text).toBe(202);
  await runDueJobs({ platformId: q.platformId });
  const job = (await q.api.get(`/customers/bulk/jobs/${res.body.jobId}`)).body;
  expect(job.progress).toEqual({ total: 2, processed: 2, successful: 1, failed: 1 });
  expect((await customerByRef(q, 'customer123')).data[0]).toMatchObject({
    umaAddress: `$john.doe@${DOMAIN}`,
    fullName: 'John Doe',
  });
  expect(job.errors[0]).toMatchObject({
    correlationId: 'biz456',
    code: 'INVALID_INPUT',
    details: { row: 3, field: 'businessLegalName' },
  });
  expect(job.errors[0].details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
    'businessIncorporatedOn',
    'businessLegalName',
    'businessTaxId',
  ]);
});

it('shows progress while the job works through the file in runs', async () => {
  const q = await newPlatform({ embeddedWallet: false });
  tuning.rowsPerRun = 2;
  const res = await upload(q.api, file(HEADER, ...['p1', 'p2', 'p3', 'p4', 'p5'].map((id) => person(id))));
  const jobId = res.body.jobId;
  const seen = [];
  for (let i = 0; i < 3; i++) {
    expect(await runDueJobs({ platformId: q.platformId })).toBe(1);
    const job = (await q.api.get(`/customers/bulk/jobs/${jobId}`)).body;
    seen.push([job.status, job.progress.processed, job.progress.successful]);
    expect(job.completedAt === undefined).toBe(job.status === 'PROCESSING');
  }
  expect(seen).toEqual([
    ['PROCESSING', 2, 2],
    ['PROCESSING', 4, 4],
    ['COMPLETED', 5, 5],
  ]);
  expect(await eventsOf(q.platformId, 'BULK_UPLOAD.COMPLETED')).toHaveLength(1);
});

it('ends FAILED with BULK_UPLOAD.FAILED when no row can be created', async () => {
  const q = await newPlatform({ embeddedWallet: false });
  const res = await upload(
    q.api,
    file(
      HEADER,
      `$a@${DOMAIN},f1,INDIVIDUAL,A,,1 Main St,Springfield,IL,62701,US,`,
      `$b@other.example,f2,INDIVIDUAL,B,1990-01-15,1 Main St,Springfield,IL,62701,US,`,
    ),
  );
  await runDueJobs({ platformId: q.platformId });
  const job = (await q.api.get(`/customers/bulk/jobs/${res.body.jobId}`)).body;
  expect(job).toMatchObject({ status: 'FAILED', progress: { total: 2, processed: 2, successful: 0, failed: 2 } });
  expect(job.errors.map((e: { correlationId: string }) => e.correlationId)).toEqual(['f1', 'f2']);
  const events = await eventsOf(q.platformId);
  expect(events.filter((e) => e.type.startsWith('BULK_UPLOAD.')).map((e) => e.type)).toEqual(['BULK_UPLOAD.FAILED']);
  expect(events.find((e) => e.type === 'BULK_UPLOAD.FAILED')!.body.data).toEqual(job);
});

it("answers 404 BULK_UPLOAD_JOB_NOT_FOUND for unknown jobs and other platforms' jobs", async () => {
  const res = await upload(p.api, file(HEADER, person('own-1')));
  expect(res.status).toBe(202);
  expectError(
    await p.api.get('/customers/bulk/jobs/BulkCustomerImportJob:00000000-0000-0000-0000-000000000000'),
    404,
    'BULK_UPLOAD_JOB_NOT_FOUND',
  );
  expectError(await p.api.get('/customers/bulk/jobs/not-an-id'), 404, 'BULK_UPLOAD_JOB_NOT_FOUND');
  const other = await newPlatform();
  expectError(await other.api.get(`/customers/bulk/jobs/${res.body.jobId}`), 404, 'BULK_UPLOAD_JOB_NOT_FOUND');
  await runDueJobs({ platformId: other.platformId });
  expect((await p.api.get(`/customers/bulk/jobs/${res.body.jobId}`)).body.status).toBe('PENDING');
});

it('needs MANAGE to upload and VIEW to read a job', async () => {
  const viewer = await p.withPermissions('VIEW');
  expectError(await upload(viewer, file(HEADER, person('v1'))), 403, 'FORBIDDEN');
  const transact = await p.withPermissions('TRANSACT');
  expectError(await upload(transact, file(HEADER, person('v1'))), 403, 'FORBIDDEN');
  const res = await upload(p.api, file(HEADER, person('v1')));
  expect((await viewer.get(`/customers/bulk/jobs/${res.body.jobId}`)).status).toBe(200);
  expectError(await transact.get(`/customers/bulk/jobs/${res.body.jobId}`), 403, 'FORBIDDEN');
  expectError(await p.api.post('/customers/bulk/csv', new FormData(), { authorization: null }), 401, 'UNAUTHORIZED');
  expectError(await p.api.get(`/customers/bulk/jobs/${res.body.jobId}`, { authorization: null }), 401, 'UNAUTHORIZED');
});
