import type { Permission } from '../core/context';
import { requireHeld } from '../tokens/grants';
import type { AgentPermission, AgentPolicy } from './schema';

// What an agent's policy lets it do for its customer, in the platform's own permissions: the
// platform operation each agent permission stands in for needs that permission of an API token.
// A caller creating, changing, reconnecting or removing an agent must hold them all (lib/tokens/
// grants.ts), so a MANAGE-only token cannot make itself an agent that moves money.
const EXERCISES: Record<AgentPermission, Permission[]> = {
  // The customer's transactions, accounts and balances (GET /transactions, /customers/internal-accounts).
  VIEW_TRANSACTIONS: ['VIEW'],
  // POST /quotes.
  CREATE_QUOTES: ['TRANSACT'],
  // POST /quotes/{id}/execute: moves money.
  EXECUTE_QUOTES: ['TRANSACT'],
  // POST /transfer-out, /transfer-in: moves money.
  CREATE_TRANSFERS: ['TRANSACT'],
  // Adds and removes (MANAGE) and reads (VIEW) the customer's external accounts.
  MANAGE_EXTERNAL_ACCOUNTS: ['VIEW', 'MANAGE'],
};

export function exercisedBy(...policies: Pick<AgentPolicy, 'permissions'>[]): Permission[] {
  return [...new Set(policies.flatMap((p) => p.permissions.flatMap((x) => EXERCISES[x])))];
}

const grants = (p: Pick<AgentPolicy, 'permissions'>) =>
  p.permissions.length ? p.permissions.join(', ') : 'no permissions';

/** Creating an agent with `policy`. */
export function requireGrantable(policy: Pick<AgentPolicy, 'permissions'>): void {
  requireHeld(exercisedBy(policy), `create an agent whose policy grants ${grants(policy)}`);
}

/**
 * Changing, reconnecting or removing agent `id`: the caller must hold what the agent can do now,
 * and, for a policy change, what it could do after.
 */
export function requireOver(id: string, current: Pick<AgentPolicy, 'permissions'>, next?: AgentPolicy): void {
  const what = next
    ? `change the policy of agent ${id} (${grants(current)}) to one granting ${grants(next)}`
    : `act on agent ${id}, whose policy grants ${grants(current)}`;
  requireHeld(exercisedBy(current, ...(next ? [next] : [])), what);
}
