import { commandEndpoint, ok, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { agentCreate, agentCreateResponse, agentList, agentListQuery } from '@/lib/agents/schema';

// POST /agents – create an agent for a customer, with its policy and a first device code
const create = commandEndpoint(
  {
    method: 'POST',
    path: '/agents',
    summary: 'Create an agent',
    tags: ['Agent Management'],
    body: agentCreate,
    answer: created,
    responses: { 201: { description: 'Agent created', schema: agentCreateResponse }, ...errors(400, 401, 403) },
  },
  commands.createAgent,
  ({ body }) => body,
);

// GET /agents – the platform's agents, newest first
const list = commandEndpoint(
  {
    method: 'GET',
    path: '/agents',
    summary: 'List agents',
    tags: ['Agent Management'],
    query: agentListQuery,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: agentList }, ...errors(400, 401, 403) },
  },
  commands.listAgents,
  ({ raw }) => raw.query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create, list);
