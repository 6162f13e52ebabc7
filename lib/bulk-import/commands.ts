import { defineCommand } from '../core/command';
import { csvUpload, jobIdParams } from './schema';
import * as bulkImport from './service';

// Importing customers from a CSV file as commands (POST /customers/bulk/csv, GET
// /customers/bulk/jobs/{jobId}); the rows are created by the import job in the background.
export const uploadCsv = defineCommand({
  name: 'customers.bulk.upload',
  input: csvUpload,
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => bulkImport.upload(actor.platformId, b.file),
});

export const getJob = defineCommand({
  name: 'customers.bulk.job',
  input: jobIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => bulkImport.get(actor.platformId, b.jobId),
});
