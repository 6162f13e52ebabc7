import { commandEndpoint, ok, noContent, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { agent, agentIdParams, agentUpdate } from '@/lib/agents/schema';

// GET /agents/{agentId} – one agent with its policy and usage
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/{agentId}',
    summary: 'Get agent by ID',
    tags: ['Agent Management'],
    params: agentIdParams,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: agent }, ...errors(401, 403, 404) },
  },
  commands.getAgent,
  ({ params }) => params,
);

// PATCH /agents/{agentId} – rename, pause or resume (in force in every server process on return)
const update = commandEndpoint(
  {
    method: 'PATCH',
    path: '/agents/{agentId}',
    summary: 'Update agent',
    tags: ['Agent Management'],
    params: agentIdParams,
    body: agentUpdate,
    answer: ok,
    responses: { 200: { description: 'Agent updated', schema: agent }, ...errors(400, 401, 403, 404) },
  },
  commands.updateAgent,
  ({ params, body }) => ({ agentId: params.agentId, changes: body }),
);

// DELETE /agents/{agentId} – delete; its access token stops working at once
const remove = commandEndpoint(
  {
    method: 'DELETE',
    path: '/agents/{agentId}',
    summary: 'Delete agent',
    tags: ['Agent Management'],
    params: agentIdParams,
    answer: noContent,
    responses: { 204: { description: 'Agent deleted' }, ...errors(401, 403, 404) },
  },
  commands.removeAgent,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get, update, remove);
