import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as bulk from '@/lib/bulk-import/commands';
import { errors } from '@/lib/http/docs';
import { bulkImportJob, jobIdParams } from '@/lib/bulk-import/schema';

// GET /customers/bulk/jobs/{jobId} – status, progress counters and per-row errors of an import
const getBulkCustomerImportJob = commandEndpoint(
  {
    method: 'GET',
    path: '/customers/bulk/jobs/{jobId}',
    answer: ok,
    summary: 'Get bulk import job status',
    tags: ['Customers'],
    params: jobIdParams,
    responses: {
      200: { description: 'Job status retrieved successfully', schema: bulkImportJob },
      ...errors(401, 403, 404),
    },
  },
  bulk.getJob,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getBulkCustomerImportJob);
