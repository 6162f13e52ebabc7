import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/wallet-auth/auth-commands';
import { accountQuery, sessionList } from '@/lib/wallet-auth/schema';

// GET /auth/sessions – the active sessions of an embedded wallet (not paginated; never key material)
const listSessions = commandEndpoint(
  {
    method: 'GET',
    path: '/auth/sessions',
    summary: 'List active sessions',
    tags: ['Embedded Wallet Auth'],
    answer: ok,
    query: accountQuery,
    responses: {
      200: { description: 'Active sessions of the internal account', schema: sessionList },
      ...errors(400, 401, 403),
    },
  },
  commands.listSessions,
  ({ raw }) => raw.query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(listSessions);
