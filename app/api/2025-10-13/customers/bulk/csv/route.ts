import { accepted, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { csvUpload, jobAccepted } from '@/lib/bulk-import/schema';
import * as bulkImport from '@/lib/bulk-import/service';

// POST /customers/bulk/csv – check a customer CSV, store its rows and start the import job
const uploadCustomersCsv = endpoint(
  {
    method: 'POST',
    path: '/customers/bulk/csv',
    summary: 'Upload customers via CSV file',
    description:
      'Header row required (umaAddress, platformCustomerId, customerType and the optional columns the reference lists, plus businessIncorporatedOn); UTF-8, at most 5 MiB and 10,000 rows. Customers are created in the background; follow the job with GET /customers/bulk/jobs/{jobId}.',
    tags: ['Customers'],
    permission: 'MANAGE',
    bodyType: 'multipart',
    body: csvUpload,
    responses: {
      202: { description: 'CSV upload accepted for processing', schema: jobAccepted },
      ...errors(400, 401, 403),
    },
  },
  async ({ actor, body }) => accepted(await bulkImport.upload(actor.platformId, body.file)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(uploadCustomersCsv);
