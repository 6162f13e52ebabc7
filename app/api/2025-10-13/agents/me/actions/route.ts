import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { agentActionList, myActionsQuery } from '@/lib/agents/schema';
import { listActions } from '@/lib/agents/me';

// GET /agents/me/actions – the agent's own actions, newest first
const list = endpoint(
  {
    method: 'GET',
    path: '/agents/me/actions',
    summary: "List agent's own actions",
    tags: ['Agent Operations'],
    auth: 'agent',
    query: myActionsQuery,
    responses: { 200: { description: 'Successful operation', schema: agentActionList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query }) => ok(await listActions(actor, query)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
