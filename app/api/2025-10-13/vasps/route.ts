import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as vasps from '@/lib/vasps/commands';
import { errors } from '@/lib/http/docs';
import { vaspList, vaspListQuery } from '@/lib/vasps/schema';

// GET /vasps – the directory of exchanges and custodians for counterparty declarations
const listVaspsEndpoint = commandEndpoint(
  {
    method: 'GET',
    path: '/vasps',
    answer: ok,
    summary: 'List VASPs',
    description:
      'Virtual Asset Service Providers recognized for counterparty declarations, alphabetical; pass `vaspName` when declaring a VASP-hosted counterparty.',
    tags: ['VASPs'],
    query: vaspListQuery,
    responses: { 200: { description: 'Successful operation', schema: vaspList }, ...errors(400, 401, 403) },
  },
  vasps.list,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(listVaspsEndpoint);
