import { accepted, commandEndpoint, routes } from '@/lib/http/endpoint';
import * as bulk from '@/lib/bulk-import/commands';
import { errors } from '@/lib/http/docs';
import { csvUpload, jobAccepted } from '@/lib/bulk-import/schema';

// POST /customers/bulk/csv – check a customer CSV, store its rows and start the import job
const uploadCustomersCsv = commandEndpoint(
  {
    method: 'POST',
    path: '/customers/bulk/csv',
    answer: accepted,
    summary: 'Upload customers via CSV file',
    description:
      'Header row required (umaAddress, platformCustomerId, customerType and the optional columns the reference lists, plus businessIncorporatedOn); UTF-8, at most 5 MiB and 10,000 rows. Customers are created in the background; follow the job with GET /customers/bulk/jobs/{jobId}.',
    tags: ['Customers'],
    bodyType: 'multipart',
    body: csvUpload,
    responses: {
      202: { description: 'CSV upload accepted for processing', schema: jobAccepted },
      ...errors(400, 401, 403),
    },
  },
  bulk.uploadCsv,
  ({ body }) => body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(uploadCustomersCsv);
