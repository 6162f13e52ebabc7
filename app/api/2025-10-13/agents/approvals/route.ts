import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { agentActionList, approvalsQuery } from '@/lib/agents/schema';

// GET /agents/approvals – agent actions waiting for the platform's approval
const list = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/approvals',
    summary: 'List agent transaction approval requests',
    tags: ['Agent Management'],
    query: approvalsQuery,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: agentActionList }, ...errors(400, 401, 403) },
  },
  commands.listApprovals,
  ({ raw }) => raw.query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
