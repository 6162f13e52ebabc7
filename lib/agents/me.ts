import type { Actor } from '../core/context';
import { pageOf } from '../core/list';
import { fieldError, notFound } from '../core/errors';
import * as accounts from '../accounts/service';
import * as externalAccounts from '../external-accounts/service';
import type { ExternalAccountCreate } from '../external-accounts/schema';
import { createQuote as createPlatformQuote } from '../payments/quotes/create';
import { toQuote } from '../payments/quotes/presenter';
import type { QuoteRequest } from '../payments/quotes/schema';
import * as transactions from '../payments/transactions/service';
import type { TransactionFilter } from '../payments/transactions/repository';
import { callingAgent } from './auth';
import { ownQuote } from './actions';
import { policyFromJson, requireAllowedAccount, requirePermission } from './policy';
import { toAction, toAgent } from './presenter';
import * as repo from './repository';
import { ownAccount } from './scope';
import { db } from '@/lib/core/db';

// The agent's own view (GET /agents/me/...): everything scoped to its customer, each operation
// calling the same service the platform's route calls, after the agent's permission check.
// Money-moving operations are in lib/agents/actions.ts.

export async function me(actor: Actor) {
  return toAgent(await callingAgent(actor, { allowPaused: true }), db());
}

async function withPermission(actor: Actor, permission: Parameters<typeof requirePermission>[1]) {
  const agent = await callingAgent(actor);
  requirePermission(policyFromJson(agent.policy), permission);
  return agent;
}

export async function listTransactions(
  actor: Actor,
  filter: Omit<TransactionFilter, 'customerId' | 'platformCustomerId'>,
  page: { limit: number; order: 'asc' | 'desc'; cursor?: string },
) {
  const agent = await withPermission(actor, 'VIEW_TRANSACTIONS');
  return transactions.list(
    agent.platformId,
    { ...filter, customerId: agent.customerId },
    page.limit,
    page.order,
    page.cursor,
  );
}

export async function getTransaction(actor: Actor, id: string) {
  const agent = await withPermission(actor, 'VIEW_TRANSACTIONS');
  const t = await transactions.get(agent.platformId, id);
  if (t.customerId !== agent.customerId) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`);
  return t;
}

export async function listInternalAccounts(
  actor: Actor,
  q: { currency?: string; type?: accounts.InternalAccountType; limit: number; cursor?: string },
) {
  const agent = await withPermission(actor, 'VIEW_TRANSACTIONS');
  return accounts.list(
    agent.platformId,
    { owner: 'customers', customerId: agent.customerId, currency: q.currency, type: q.type },
    q.limit,
    q.cursor,
  );
}

/**
 * POST /agents/me/quotes: the platform's quote creation, for the agent's customer's own accounts
 * (another customer's: 400, the reference lists no 404 here). Execution is a separate, policy-
 * checked step, so immediatelyExecute is refused.
 */
export async function createQuote(actor: Actor, req: QuoteRequest) {
  const agent = await withPermission(actor, 'CREATE_QUOTES');
  if (req.immediatelyExecute)
    throw fieldError(
      'immediatelyExecute',
      "an agent's quote executes through the agent's own quote execution, where its policy applies",
    );
  const policy = policyFromJson(agent.policy);
  let source = req.source;
  if (source.sourceType === 'ACCOUNT') {
    const kind = await ownAccount(agent, source.accountId, 'either', 'source.accountId', 'invalid');
    if (kind === 'internal') requireAllowedAccount(policy, source.accountId);
  } else {
    if (source.customerId && source.customerId !== agent.customerId)
      throw fieldError('source.customerId', "must be the agent's customer (or omitted)");
    source = { ...source, customerId: agent.customerId };
  }
  if (req.destination.destinationType === 'ACCOUNT')
    await ownAccount(agent, req.destination.accountId, 'either', 'destination.accountId', 'invalid');
  return createPlatformQuote(agent.platformId, { ...req, source }, { agentId: agent.id });
}

export async function getQuote(actor: Actor, quoteId: string) {
  const agent = await withPermission(actor, ['CREATE_QUOTES', 'EXECUTE_QUOTES']);
  return toQuote(await ownQuote(agent, quoteId));
}

export async function listActions(actor: Actor, q: { status?: string; limit: number; cursor?: string }) {
  const agent = await callingAgent(actor);
  const filter = { agentId: agent.id, status: q.status };
  const req = { limit: q.limit, cursor: q.cursor, filters: { ...filter } };
  const page = pageOf(await repo.listActions(agent.platformId, filter, req), (r) => r);
  return { ...page, data: await Promise.all(page.data.map((r) => toAction(r, db()))) };
}

export async function getAction(actor: Actor, actionId: string) {
  const agent = await callingAgent(actor);
  const row = await repo.findAction(agent.platformId, actionId, db());
  if (!row || row.agentId !== agent.id) throw notFound('REFERENCE_NOT_FOUND', `Agent action ${actionId}`);
  return toAction(row, db());
}

const ownerOf = (agent: { customerId: string }) => ({ kind: 'customers' as const, customerId: agent.customerId });

export async function listExternalAccounts(actor: Actor, q: { currency?: string; limit: number; cursor?: string }) {
  const agent = await withPermission(actor, 'MANAGE_EXTERNAL_ACCOUNTS');
  return externalAccounts.list(agent.platformId, { owner: ownerOf(agent), currency: q.currency }, q.limit, q.cursor);
}

/** POST /agents/me/external-accounts: customerId is the agent's customer (given or inferred). */
export async function addExternalAccount(actor: Actor, input: ExternalAccountCreate) {
  const agent = await withPermission(actor, 'MANAGE_EXTERNAL_ACCOUNTS');
  if (input.customerId && input.customerId !== agent.customerId)
    throw fieldError('customerId', "must be the agent's customer (or omitted)");
  return externalAccounts.create(agent.platformId, { ...input, customerId: agent.customerId });
}

export async function getExternalAccount(actor: Actor, id: string) {
  const agent = await withPermission(actor, 'MANAGE_EXTERNAL_ACCOUNTS');
  return externalAccounts.get(agent.platformId, id, ownerOf(agent));
}

export async function removeExternalAccount(actor: Actor, id: string) {
  const agent = await withPermission(actor, 'MANAGE_EXTERNAL_ACCOUNTS');
  await externalAccounts.remove(agent.platformId, id, ownerOf(agent));
}
