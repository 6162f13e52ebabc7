import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { accountQuery, sessionList } from '@/lib/wallet-auth/schema';
import * as sessions from '@/lib/wallet-auth/sessions';

// GET /auth/sessions – the active sessions of an embedded wallet (not paginated; never key material)
const listSessions = endpoint(
  {
    method: 'GET',
    path: '/auth/sessions',
    summary: 'List active sessions',
    tags: ['Embedded Wallet Auth'],
    permission: 'VIEW',
    query: accountQuery,
    responses: {
      200: { description: 'Active sessions of the internal account', schema: sessionList },
      ...errors(400, 401, 403),
    },
  },
  async ({ actor, query }) => ok(await sessions.list(actor.platformId, query.accountId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(listSessions);
