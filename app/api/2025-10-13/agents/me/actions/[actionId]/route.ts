import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { actionIdParams, agentAction } from '@/lib/agents/schema';

// GET /agents/me/actions/{actionId} – one of the agent's actions (poll for the platform's decision)
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/me/actions/{actionId}',
    summary: 'Get an agent action',
    tags: ['Agent Operations'],
    auth: 'agent',
    params: actionIdParams,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: agentAction }, ...errors(401, 403, 404) },
  },
  commands.getAction,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
