import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { bulkImportJob, jobIdParams } from '@/lib/bulk-import/schema';
import * as bulkImport from '@/lib/bulk-import/service';

// GET /customers/bulk/jobs/{jobId} – status, progress counters and per-row errors of an import
const getBulkCustomerImportJob = endpoint(
  {
    method: 'GET',
    path: '/customers/bulk/jobs/{jobId}',
    summary: 'Get bulk import job status',
    tags: ['Customers'],
    permission: 'VIEW',
    params: jobIdParams,
    responses: {
      200: { description: 'Job status retrieved successfully', schema: bulkImportJob },
      ...errors(401, 403, 404),
    },
  },
  async ({ actor, params }) => ok(await bulkImport.get(actor.platformId, params.jobId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getBulkCustomerImportJob);
