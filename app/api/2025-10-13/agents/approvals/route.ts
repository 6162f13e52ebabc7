import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { agentActionList, approvalsQuery } from '@/lib/agents/schema';
import { listApprovals } from '@/lib/agents/approvals';

// GET /agents/approvals – agent actions waiting for the platform's approval
const list = endpoint(
  {
    method: 'GET',
    path: '/agents/approvals',
    summary: 'List agent transaction approval requests',
    tags: ['Agent Management'],
    permission: 'VIEW',
    query: approvalsQuery,
    responses: { 200: { description: 'Successful operation', schema: agentActionList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query }) => ok(await listApprovals(actor, query)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
