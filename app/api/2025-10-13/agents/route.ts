import { endpoint, ok, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { agentCreate, agentCreateResponse, agentList, agentListQuery } from '@/lib/agents/schema';
import * as agents from '@/lib/agents/service';

// POST /agents – create an agent for a customer, with its policy and a first device code
const create = endpoint(
  {
    method: 'POST',
    path: '/agents',
    summary: 'Create an agent',
    tags: ['Agent Management'],
    permission: 'MANAGE',
    body: agentCreate,
    idempotent: true,
    answer: created,
    responses: { 201: { description: 'Agent created', schema: agentCreateResponse }, ...errors(400, 401, 403) },
  },
  async ({ actor, body }) => agents.create(actor.platformId, body),
);

// GET /agents – the platform's agents, newest first
const list = endpoint(
  {
    method: 'GET',
    path: '/agents',
    summary: 'List agents',
    tags: ['Agent Management'],
    permission: 'VIEW',
    query: agentListQuery,
    responses: { 200: { description: 'Successful operation', schema: agentList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query }) => ok(await agents.list(actor.platformId, query)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create, list);
