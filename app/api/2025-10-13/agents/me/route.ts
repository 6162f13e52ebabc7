import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { agent } from '@/lib/agents/schema';
import { me } from '@/lib/agents/me';

// GET /agents/me – the calling agent: profile, policy, usage
const get = endpoint(
  {
    method: 'GET',
    path: '/agents/me',
    summary: 'Get current agent',
    tags: ['Agent Operations'],
    auth: 'agent',
    responses: { 200: { description: 'Successful operation', schema: agent }, ...errors(401) },
  },
  async ({ actor }) => ok(await me(actor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
