import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { actionParams, agentAction, rejectRequest } from '@/lib/agents/schema';

// POST /agents/{agentId}/actions/{actionId}/reject – refuse; nothing moves, the reason is kept
const reject = commandEndpoint(
  {
    method: 'POST',
    path: '/agents/{agentId}/actions/{actionId}/reject',
    summary: 'Reject an agent action',
    tags: ['Agent Management'],
    params: actionParams,
    body: rejectRequest,
    answer: ok,
    responses: { 200: { description: 'Action rejected', schema: agentAction }, ...errors(400, 401, 403, 404, 409) },
  },
  commands.rejectAction,
  ({ params, body }) => ({ ...params, ...body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(reject);
