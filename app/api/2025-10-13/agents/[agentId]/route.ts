import { endpoint, ok, noContent, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { agent, agentIdParams, agentUpdate } from '@/lib/agents/schema';
import * as agents from '@/lib/agents/service';

// GET /agents/{agentId} – one agent with its policy and usage
const get = endpoint(
  {
    method: 'GET',
    path: '/agents/{agentId}',
    summary: 'Get agent by ID',
    tags: ['Agent Management'],
    permission: 'VIEW',
    params: agentIdParams,
    responses: { 200: { description: 'Successful operation', schema: agent }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await agents.get(actor.platformId, params.agentId)),
);

// PATCH /agents/{agentId} – rename, pause or resume (in force in every server process on return)
const update = endpoint(
  {
    method: 'PATCH',
    path: '/agents/{agentId}',
    summary: 'Update agent',
    tags: ['Agent Management'],
    permission: 'MANAGE',
    params: agentIdParams,
    body: agentUpdate,
    responses: { 200: { description: 'Agent updated', schema: agent }, ...errors(400, 401, 403, 404) },
  },
  async ({ actor, params, body }) => ok(await agents.update(actor.platformId, params.agentId, body)),
);

// DELETE /agents/{agentId} – delete; its access token stops working at once
const remove = endpoint(
  {
    method: 'DELETE',
    path: '/agents/{agentId}',
    summary: 'Delete agent',
    tags: ['Agent Management'],
    permission: 'MANAGE',
    params: agentIdParams,
    responses: { 204: { description: 'Agent deleted' }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => {
    await agents.remove(actor.platformId, params.agentId);
    return noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get, update, remove);
