import { endpoint, noContent, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { credentialIdParams, customerQuery } from '@/lib/sca/schema';
import * as factors from '@/lib/sca/factors';

// DELETE /sca/factors/{credentialId} – delete the customer's passkey factor
const deleteScaFactor = endpoint(
  {
    method: 'DELETE',
    path: '/sca/factors/{credentialId}',
    summary: 'Delete an enrolled SCA factor',
    tags: ['Strong Customer Authentication'],
    permission: 'MANAGE',
    params: credentialIdParams,
    query: customerQuery,
    responses: { 204: { description: 'Factor deleted.' }, ...errors(400, 401, 403, 404, 409) },
  },
  async ({ actor, params, query }) => {
    await factors.remove(actor.platformId, query.customerId, params.credentialId);
    return noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(deleteScaFactor);
