import { db } from '@/lib/core/db';
import { runDueJobs } from '@/lib/jobs/queue';
import { setClockOffset } from '@/lib/platform/repository';
import type { Api, TestPlatform } from '@/tests/support/api';

// Shared by the bulk import test files: CSV building, upload, and driving the job.
export const DOMAIN = 'sandbox.uma.money';
export const HEADER =
  'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,email';
export const person = (id: string, name = `Person ${id}`, extra = '') =>
  `$${id}@${DOMAIN},${id},INDIVIDUAL,${name},1990-01-15,1 Main St,Springfield,IL,62701,US,${extra}`;
export const file = (...lines: string[]) => lines.join('\r\n') + '\r\n';

export function upload(api: Api, content: string | Uint8Array, name = 'customers.csv') {
  const form = new FormData();
  form.append('file', new Blob([content as BlobPart], { type: 'text/csv' }), name);
  return api.post('/customers/bulk/csv', form);
}

export async function customerByRef(p: TestPlatform, platformCustomerId: string) {
  const res = await p.api.get('/customers', { query: { platformCustomerId } });
  return res.body as { totalCount: number; data: Record<string, unknown>[] };
}

export async function advanceClock(p: TestPlatform, seconds: number) {
  const row = await db().platform.findUniqueOrThrow({ where: { id: p.platformId } });
  await setClockOffset(p.platformId, row.clockOffsetMs + BigInt(seconds * 1000));
}

/** Runs the platform's due jobs, moving its clock on between rounds, until the import ends. */
export async function runUntilDone(p: TestPlatform, jobId: string, rounds = 30) {
  for (let i = 0; i < rounds; i++) {
    await runDueJobs({ platformId: p.platformId });
    const job = (await p.api.get(`/customers/bulk/jobs/${jobId}`)).body;
    if (job.status === 'COMPLETED' || job.status === 'FAILED') return job;
    await advanceClock(p, 600);
  }
  throw new Error('import did not finish');
}
