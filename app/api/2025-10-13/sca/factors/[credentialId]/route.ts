import { commandEndpoint, noContent, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/sca/commands';
import { credentialIdParams, customerQuery } from '@/lib/sca/schema';

// DELETE /sca/factors/{credentialId} – delete the customer's passkey factor
const deleteScaFactor = commandEndpoint(
  {
    method: 'DELETE',
    path: '/sca/factors/{credentialId}',
    summary: 'Delete an enrolled SCA factor',
    tags: ['Strong Customer Authentication'],
    answer: noContent,
    params: credentialIdParams,
    query: customerQuery,
    responses: { 204: { description: 'Factor deleted.' }, ...errors(400, 401, 403, 404, 409) },
  },
  commands.removeFactor,
  ({ params, raw }) => ({ customerId: raw.query.customerId, credentialId: params.credentialId }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(deleteScaFactor);
