import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { agentActionList, myActionsQuery } from '@/lib/agents/schema';

// GET /agents/me/actions – the agent's own actions, newest first
const list = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/me/actions',
    summary: "List agent's own actions",
    tags: ['Agent Operations'],
    auth: 'agent',
    query: myActionsQuery,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: agentActionList }, ...errors(400, 401, 403) },
  },
  commands.listActions,
  ({ raw }) => raw.query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
