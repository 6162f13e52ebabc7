import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { agent } from '@/lib/agents/schema';

// GET /agents/me – the calling agent: profile, policy, usage (MCP: whoami)
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/me',
    summary: 'Get current agent',
    tags: ['Agent Operations'],
    auth: 'agent',
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: agent }, ...errors(401) },
  },
  commands.whoami,
  () => ({}),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
