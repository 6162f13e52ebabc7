import { z } from 'zod';
import { defineCommand } from '../core/command';
import { pageQuery } from '../core/pagination';
import { customerExternalAccountCreate, type ExternalAccountCreate } from '../external-accounts/schema';
import { quoteRequest } from '../payments/quotes/schema';
import { walletSignatureForQuote } from '../payments/quotes/wallet';
import { transferIn, transferOut } from '../payments/transfers/schema';
import * as actions from './actions';
import * as approvals from './approvals';
import * as deviceCodes from './device-codes';
import * as me from './me';
import * as agents from './service';
import {
  actionParams,
  actionStatus,
  agentCreate,
  agentIdParams,
  agentListQuery,
  agentPolicyUpdate,
  agentUpdate,
  approvalsQuery,
  codeParams,
  myExternalAccountsQuery,
  myInternalAccountsQuery,
  myTransactionsQuery,
} from './schema';

// An agent's own operations (/agents/me over REST, the MCP tools): each acts for the agent's one
// customer; the agent's policy, grants, limits and approvals are checked by the domain call
// (lib/agents/me.ts, actions.ts). The ones that move money or create something are exactly-once
// per idempotency key.
const agent = { agent: true } as const;
const page = { limit: pageQuery.limit.optional().default(20), cursor: pageQuery.cursor };

export const whoami = defineCommand({
  name: 'agents.me',
  input: z.object({}),
  actors: agent,
  idempotency: 'none',
  run: (actor) => me.me(actor),
});

export const listInternalAccounts = defineCommand({
  name: 'agents.me.internal-accounts.list',
  input: myInternalAccountsQuery,
  actors: agent,
  idempotency: 'none',
  run: (actor, q) => me.listInternalAccounts(actor, q),
});

// The filters of GET /agents/me/transactions (MCP's list_transactions takes the same).
export const listTransactions = defineCommand({
  name: 'agents.me.transactions.list',
  input: myTransactionsQuery,
  actors: agent,
  idempotency: 'none',
  run: (actor, { limit, cursor, sortOrder, startDate, endDate, ...f }) =>
    me.listTransactions(
      actor,
      {
        ...f,
        startDate: startDate ? new Date(startDate) : undefined,
        endDate: endDate ? new Date(endDate) : undefined,
      },
      { limit, order: sortOrder, cursor },
    ),
});

export const getTransaction = defineCommand({
  name: 'agents.me.transactions.get',
  input: z.object({ transactionId: z.string() }),
  actors: agent,
  idempotency: 'none',
  run: (actor, q) => me.getTransaction(actor, q.transactionId),
});

export const createQuote = defineCommand({
  name: 'agents.me.quotes.create',
  input: quoteRequest,
  actors: agent,
  idempotency: 'optional',
  run: (actor, q) => me.createQuote(actor, q),
});

export const getQuote = defineCommand({
  name: 'agents.me.quotes.get',
  input: z.object({ quoteId: z.string() }),
  actors: agent,
  idempotency: 'none',
  run: (actor, q) => me.getQuote(actor, q.quoteId),
});

export const executeQuote = defineCommand({
  name: 'agents.me.quotes.execute',
  // stamp: the Service-Wallet-Signature over the quote's payloadToSign (Embedded Wallet sources).
  input: z.object({ quoteId: z.string(), stamp: z.string().nullable().default(null) }),
  actors: agent,
  idempotency: 'optional',
  run: (actor, q) => actions.executeQuote(actor, q.quoteId, walletSignatureForQuote(q.stamp)),
});

export const sendOut = defineCommand({
  name: 'agents.me.transfer-out',
  input: transferOut,
  actors: agent,
  idempotency: 'optional',
  run: (actor, b) => actions.transferOut(actor, b),
});

export const pullIn = defineCommand({
  name: 'agents.me.transfer-in',
  input: transferIn,
  actors: agent,
  idempotency: 'optional',
  run: (actor, b) => actions.transferIn(actor, b),
});

export const listExternalAccounts = defineCommand({
  name: 'agents.me.external-accounts.list',
  input: myExternalAccountsQuery,
  actors: agent,
  idempotency: 'none',
  run: (actor, q) => me.listExternalAccounts(actor, q),
});

export const addExternalAccount = defineCommand({
  name: 'agents.me.external-accounts.create',
  input: customerExternalAccountCreate,
  actors: agent,
  idempotency: 'optional',
  run: (actor, b) => me.addExternalAccount(actor, b as ExternalAccountCreate),
});

export const listActions = defineCommand({
  name: 'agents.me.actions.list',
  input: z.object({ status: actionStatus.optional(), ...page }),
  actors: agent,
  idempotency: 'none',
  run: (actor, q) => me.listActions(actor, q),
});

export const getAction = defineCommand({
  name: 'agents.me.actions.get',
  input: z.object({ actionId: z.string() }),
  actors: agent,
  idempotency: 'none',
  run: (actor, q) => me.getAction(actor, q.actionId),
});

export const getExternalAccount = defineCommand({
  name: 'agents.me.external-accounts.get',
  input: z.object({ externalAccountId: z.string() }),
  actors: agent,
  idempotency: 'none',
  run: (actor, q) => me.getExternalAccount(actor, q.externalAccountId),
});

export const removeExternalAccount = defineCommand({
  name: 'agents.me.external-accounts.remove',
  input: z.object({ externalAccountId: z.string() }),
  actors: agent,
  idempotency: 'none',
  run: (actor, q) => me.removeExternalAccount(actor, q.externalAccountId),
});

// The platform's management of its agents (/agents, /agents/{agentId}/..., /agents/approvals):
// API tokens with the permission each operation has always required. The device-code redemption
// is the agent software's one unauthenticated call: the edge runs it as the system actor.
export const createAgent = defineCommand({
  name: 'agents.create',
  input: agentCreate,
  actors: { platform: 'MANAGE' },
  idempotency: 'optional',
  run: (actor, b) => agents.create(actor.platformId, b),
});

export const listAgents = defineCommand({
  name: 'agents.list',
  input: agentListQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, q) => agents.list(actor.platformId, q),
});

export const getAgent = defineCommand({
  name: 'agents.get',
  input: agentIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => agents.get(actor.platformId, b.agentId),
});

export const updateAgent = defineCommand({
  name: 'agents.update',
  input: z.object({ agentId: z.string(), changes: agentUpdate }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => agents.update(actor.platformId, b.agentId, b.changes),
});

export const updateAgentPolicy = defineCommand({
  name: 'agents.policy.update',
  input: z.object({ agentId: z.string(), changes: agentPolicyUpdate }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => agents.updatePolicy(actor.platformId, b.agentId, b.changes),
});

export const removeAgent = defineCommand({
  name: 'agents.remove',
  input: agentIdParams,
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => agents.remove(actor.platformId, b.agentId),
});

export const regenerateDeviceCode = defineCommand({
  name: 'agents.device-codes.create',
  input: agentIdParams,
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => deviceCodes.regenerate(actor.platformId, b.agentId),
});

export const deviceCodeStatus = defineCommand({
  name: 'agents.device-codes.status',
  input: codeParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => deviceCodes.status(actor.platformId, b.code),
});

export const redeemDeviceCode = defineCommand({
  name: 'agents.device-codes.redeem',
  input: codeParams,
  actors: { system: true },
  idempotency: 'none',
  run: (_actor, b) => deviceCodes.redeem(b.code),
});

export const listApprovals = defineCommand({
  name: 'agents.approvals.list',
  input: approvalsQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, q) => approvals.listApprovals(actor, q),
});

export const approveAction = defineCommand({
  name: 'agents.actions.approve',
  input: actionParams,
  actors: { platform: 'TRANSACT' },
  idempotency: 'optional',
  run: (actor, b) => approvals.approveAction(actor, b.agentId, b.actionId),
});

export const rejectAction = defineCommand({
  name: 'agents.actions.reject',
  input: actionParams.extend({ reason: z.string().max(1000).optional() }),
  actors: { platform: 'TRANSACT' },
  idempotency: 'optional',
  run: (actor, b) => approvals.rejectAction(actor, b.agentId, b.actionId, b.reason),
});
