import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { vaspList, vaspListQuery } from '@/lib/vasps/schema';
import { listVasps } from '@/lib/vasps/service';

// GET /vasps – the directory of exchanges and custodians for counterparty declarations
const listVaspsEndpoint = endpoint(
  {
    method: 'GET',
    path: '/vasps',
    summary: 'List VASPs',
    description:
      'Virtual Asset Service Providers recognized for counterparty declarations, alphabetical; pass `vaspName` when declaring a VASP-hosted counterparty.',
    tags: ['VASPs'],
    permission: 'VIEW',
    query: vaspListQuery,
    responses: { 200: { description: 'Successful operation', schema: vaspList }, ...errors(400, 401, 403) },
  },
  async ({ query }) => ok(listVasps(query.limit, query.cursor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(listVaspsEndpoint);
