import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { actionIdParams, agentAction } from '@/lib/agents/schema';
import { getAction } from '@/lib/agents/me';

// GET /agents/me/actions/{actionId} – one of the agent's actions (poll for the platform's decision)
const get = endpoint(
  {
    method: 'GET',
    path: '/agents/me/actions/{actionId}',
    summary: 'Get an agent action',
    tags: ['Agent Operations'],
    auth: 'agent',
    params: actionIdParams,
    responses: { 200: { description: 'Successful operation', schema: agentAction }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await getAction(actor, params.actionId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
