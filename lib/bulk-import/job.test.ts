import { afterEach, expect, it, vi } from 'vitest';
import { db } from '@/lib/core/db';
import { eventsOf } from '@/lib/events/outbox';
import { runDueJobs } from '@/lib/jobs/queue';
import { runAs } from '@/lib/core/context';
import { addSeconds, now } from '@/lib/core/clock';
import * as customersService from '@/lib/customers/service';
import { newPlatform } from '@/tests/support/api';
import { tuning } from './job';
import * as repo from './repository';
import { DOMAIN, HEADER, customerByRef, file, person, runUntilDone, upload } from './testing';

// The import job under failure: a worker dying mid-row, a run dying while holding the file,
// rows that keep erroring, and a job the queue gives up on.
afterEach(() => {
  vi.restoreAllMocks();
});

it('resumes after a worker dies between creating a customer and recording it, without a duplicate', async () => {
  const q = await newPlatform({ embeddedWallet: false });
  const realCreate = customersService.create;
  let crashed = false;
  const spy = vi.spyOn(customersService, 'create').mockImplementation(async (platformId, input) => {
    const customer = await realCreate(platformId, input);
    if (input.platformCustomerId === 'c2' && !crashed) {
      crashed = true;
      throw new Error('worker process died');
    }
    return customer;
  });
  const res = await upload(q.api, file(HEADER, person('c1'), person('c2'), person('c3')));
  const jobId = res.body.jobId;
  await runDueJobs({ platformId: q.platformId });
  const mid = (await q.api.get(`/customers/bulk/jobs/${jobId}`)).body;
  expect(mid).toMatchObject({ status: 'PROCESSING', progress: { processed: 1, successful: 1 } });
  expect((await customerByRef(q, 'c2')).totalCount).toBe(1); // created, but not recorded

  const job = await runUntilDone(q, jobId);
  expect(job).toMatchObject({
    status: 'COMPLETED',
    progress: { total: 3, processed: 3, successful: 3, failed: 0 },
    errors: [],
  });
  expect((await customerByRef(q, 'c2')).totalCount).toBe(1);
  expect(spy.mock.calls.filter(([, input]) => input.platformCustomerId === 'c2')).toHaveLength(1);
  const row = await db().bulkCustomerImportRow.findUniqueOrThrow({
    where: { importId_rowNumber: { importId: jobId, rowNumber: 3 } },
  });
  expect(row.customerId).toBe((await customerByRef(q, 'c2')).data[0].id);
});

it('takes over from a run that died holding the file once its lease runs out', async () => {
  const q = await newPlatform({ embeddedWallet: false });
  const res = await upload(q.api, file(HEADER, person('d1'), person('d2')));
  const jobId = res.body.jobId;
  // A dead run: it took the file, claimed row 2 and created its customer, then vanished.
  const platform = await db().platform.findUniqueOrThrow({ where: { id: q.platformId } });
  await runAs(
    { kind: 'system', platformId: q.platformId, clockOffsetMs: platform.clockOffsetMs, clockFrozenAt: null },
    async () => {
      const at = now();
      await db().$transaction(async (tx) => {
        expect(await repo.acquireLease(jobId, 'Job:dead-run', at, addSeconds(at, tuning.leaseSeconds), tx)).toBe(true);
        expect(await repo.claimRow(jobId, 2, 0, null, at, tx)).toBe(true);
      });
      await customersService.create(q.platformId, {
        customerType: 'INDIVIDUAL',
        platformCustomerId: 'd1',
        umaAddress: `$d1@${DOMAIN}`,
        fullName: 'Person d1',
      });
    },
  );

  await runDueJobs({ platformId: q.platformId });
  const waiting = (await q.api.get(`/customers/bulk/jobs/${jobId}`)).body;
  expect(waiting).toMatchObject({ status: 'PROCESSING', progress: { processed: 0 } });
  const job = await runUntilDone(q, jobId);
  expect(job).toMatchObject({ status: 'COMPLETED', progress: { processed: 2, successful: 2, failed: 0 } });
  expect((await customerByRef(q, 'd1')).totalCount).toBe(1);
  expect((await customerByRef(q, 'd2')).totalCount).toBe(1);
});

it('fails a row that keeps erroring and carries on with the rest', async () => {
  const q = await newPlatform({ embeddedWallet: false });
  const realCreate = customersService.create;
  vi.spyOn(customersService, 'create').mockImplementation(async (platformId, input) => {
    if (input.platformCustomerId === 'poison') throw new Error('unexpected failure');
    return realCreate(platformId, input);
  });
  const res = await upload(q.api, file(HEADER, person('ok-1'), person('poison'), person('ok-2')));
  const job = await runUntilDone(q, res.body.jobId);
  expect(job).toMatchObject({ status: 'COMPLETED', progress: { total: 3, processed: 3, successful: 2, failed: 1 } });
  expect(job.errors).toEqual([
    {
      correlationId: 'poison',
      code: 'INTERNAL_ERROR',
      message: 'Row 3: The customer could not be created after 3 attempts',
      details: { row: 3, errors: [] },
    },
  ]);
});

it('gives up with BULK_UPLOAD.FAILED when the job keeps failing, settling every row', async () => {
  const q = await newPlatform({ embeddedWallet: false });
  vi.spyOn(customersService, 'create').mockRejectedValue(new Error('database unavailable'));
  const res = await upload(q.api, file(HEADER, person('g1'), person('g2'), person('g3')));
  const job = await runUntilDone(q, res.body.jobId);
  expect(job).toMatchObject({ status: 'FAILED', progress: { total: 3, processed: 3, successful: 0, failed: 3 } });
  expect(job.errors.map((e: { code: string; details: { row: number } }) => [e.details.row, e.code])).toEqual([
    [2, 'INTERNAL_ERROR'],
    [3, 'INTERNAL_ERROR'],
    [4, 'INTERNAL_ERROR'],
  ]);
  expect(job.errors[2].message).toMatch(/Not processed: the import stopped after repeated errors/);
  const failed = await eventsOf(q.platformId, 'BULK_UPLOAD.FAILED');
  expect(failed).toHaveLength(1);
  expect(failed[0].body.data).toEqual(job);
  expect(await db().job.count({ where: { platformId: q.platformId, state: { in: ['PENDING', 'RUNNING'] } } })).toBe(0);
});
