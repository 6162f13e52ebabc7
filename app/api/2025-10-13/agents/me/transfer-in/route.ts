import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { agentAction } from '@/lib/agents/schema';
import { transferIn } from '@/lib/payments/transfers/schema';

// POST /agents/me/transfer-in – the platform's transfer-in, under the agent's policy (CREATE_TRANSFERS)
const create = commandEndpoint(
  {
    method: 'POST',
    path: '/agents/me/transfer-in',
    summary: 'Create a transfer-in',
    tags: ['Agent Operations'],
    auth: 'agent',
    body: transferIn,
    answer: created,
    responses: { 201: { description: 'Action submitted', schema: agentAction }, ...errors(400, 401, 403, 404) },
  },
  commands.pullIn,
  ({ raw }) => raw.body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
