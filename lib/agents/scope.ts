import { fieldError, notFound } from '../core/errors';
import * as accounts from '../accounts/service';
import * as externalAccounts from '../external-accounts/service';
import type { AgentRow } from './repository';
import { db } from '@/lib/core/db';

// An agent acts for one customer: every account it names must be that customer's. Another
// customer's account (or one that does not exist) is answered as not found, so an agent cannot
// learn what other customers hold.
export type Kind = 'internal' | 'external' | 'either';

/** `id` is an account of the agent's customer (of `kind`); which kind it is. */
export async function ownAccount(
  agent: AgentRow,
  id: string,
  kind: Kind,
  field: string,
  as: 'notFound' | 'invalid' = 'notFound',
): Promise<'internal' | 'external'> {
  if (kind !== 'external') {
    const row = await accounts.findRow(agent.platformId, id, db());
    if (row && row.customerId === agent.customerId) return 'internal';
  }
  if (kind !== 'internal') {
    const row = await externalAccounts.getForPayment(agent.platformId, id, db());
    if (row && row.customerId === agent.customerId) return 'external';
  }
  if (as === 'invalid') throw fieldError(field, `${id} is not an account of the agent's customer`);
  throw notFound('REFERENCE_NOT_FOUND', `Account ${id}`);
}
