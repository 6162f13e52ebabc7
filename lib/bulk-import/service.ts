import { newId } from '../core/ids';
import { now } from '../core/clock';
import { transaction, type Tx, db } from '../core/db';
import { invalidInput, notFound } from '../core/errors';
import { enqueue } from '../jobs/queue';
import { MAX_FILE_BYTES, readCustomerFile } from './file';
import * as repo from './repository';
import type { RowError } from './rows';

// Bulk customer import: POST /customers/bulk/csv checks the file, stores its rows and schedules
// the import job (lib/bulk-import/job.ts) in one transaction; GET /customers/bulk/jobs/{jobId}
// reads the job's progress.
export const IMPORT_JOB_KIND = 'BULK_CUSTOMER_IMPORT';

/** The job as the API shows it (reference: BulkCustomerImportJob). */
export async function present(job: repo.ImportRow, tx: Tx) {
  const errors = (await repo.failedRows(job.id, tx)).map((r) => r.error as unknown as RowError);
  return {
    id: job.id,
    status: job.status as 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED',
    progress: { total: job.total, processed: job.processed, successful: job.successful, failed: job.failed },
    errors,
    ...(job.completedAt ? { completedAt: job.completedAt } : {}),
  };
}
export type BulkImportJob = Awaited<ReturnType<typeof present>>;

export async function upload(platformId: string, file: Blob): Promise<{ jobId: string; status: 'PENDING' }> {
  if (file.size > MAX_FILE_BYTES) {
    throw invalidInput(
      `The file is larger than the ${MAX_FILE_BYTES / 1024 / 1024} MiB limit; split it into several uploads`,
      [{ field: 'file', message: `must be at most ${MAX_FILE_BYTES} bytes` }],
    );
  }
  const rows = readCustomerFile(new Uint8Array(await file.arrayBuffer()));
  const id = newId('BulkCustomerImportJob');
  const fileName =
    typeof (file as File).name === 'string' && (file as File).name ? (file as File).name.slice(0, 255) : null;
  await transaction(
    async (tx) => {
      await repo.insert({ id, platformId, fileName, at: now() }, rows, tx);
      await enqueue(tx, { platformId, kind: IMPORT_JOB_KIND, payload: { importId: id } });
    },
    { timeoutMs: 60_000 },
  );
  return { jobId: id, status: 'PENDING' };
}

export async function get(platformId: string, jobId: string): Promise<BulkImportJob> {
  const job = await repo.find(platformId, jobId, db());
  if (!job) throw notFound('BULK_UPLOAD_JOB_NOT_FOUND', `Bulk import job ${jobId}`);
  return present(job, db());
}
