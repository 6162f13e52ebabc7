import { endpoint, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { agentAction } from '@/lib/agents/schema';
import { transferOut } from '@/lib/payments/transfers/schema';
import * as actions from '@/lib/agents/actions';

// POST /agents/me/transfer-out – the platform's transfer-out, under the agent's policy (CREATE_TRANSFERS)
const create = endpoint(
  {
    method: 'POST',
    path: '/agents/me/transfer-out',
    summary: 'Create a transfer-out',
    tags: ['Agent Operations'],
    auth: 'agent',
    body: transferOut,
    idempotent: true,
    answer: created,
    responses: { 201: { description: 'Action submitted', schema: agentAction }, ...errors(400, 401, 403, 404) },
  },
  async ({ actor, body }) => actions.transferOut(actor, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
