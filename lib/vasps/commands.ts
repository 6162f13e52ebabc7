import { defineCommand } from '../core/command';
import { vaspListQuery } from './schema';
import { listVasps } from './service';

// GET /vasps as a query: the directory of exchanges and custodians for counterparty declarations.
export const list = defineCommand({
  name: 'vasps.list',
  input: vaspListQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: async (_actor, q) => listVasps(q.limit, q.cursor),
});
