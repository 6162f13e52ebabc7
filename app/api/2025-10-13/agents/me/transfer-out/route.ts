import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { agentAction } from '@/lib/agents/schema';
import { transferOut } from '@/lib/payments/transfers/schema';

// POST /agents/me/transfer-out – the platform's transfer-out, under the agent's policy (CREATE_TRANSFERS)
const create = commandEndpoint(
  {
    method: 'POST',
    path: '/agents/me/transfer-out',
    summary: 'Create a transfer-out',
    tags: ['Agent Operations'],
    auth: 'agent',
    body: transferOut,
    answer: created,
    responses: { 201: { description: 'Action submitted', schema: agentAction }, ...errors(400, 401, 403, 404) },
  },
  commands.sendOut,
  ({ raw }) => raw.body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
