import { z } from 'zod';
import { defineCommand } from '../core/command';
import { pageQuery } from '../core/pagination';
import { customerExternalAccountCreate, type ExternalAccountCreate } from '../external-accounts/schema';
import { quoteRequest } from '../payments/quotes/schema';
import { walletSignatureForQuote } from '../payments/quotes/wallet';
import { transactionStatus } from '../payments/transactions/schema';
import { transferIn, transferOut } from '../payments/transfers/schema';
import * as actions from './actions';
import * as me from './me';
import { actionStatus, myExternalAccountsQuery, myInternalAccountsQuery } from './schema';

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

export const listTransactions = defineCommand({
  name: 'agents.me.transactions.list',
  input: z.object({ status: transactionStatus.optional(), ...page }),
  actors: agent,
  idempotency: 'none',
  run: (actor, q) =>
    me.listTransactions(actor, { status: q.status }, { limit: q.limit, order: 'desc', cursor: q.cursor }),
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
  input: z.object({ quoteId: z.string() }),
  actors: agent,
  idempotency: 'optional',
  run: (actor, q) => actions.executeQuote(actor, q.quoteId, walletSignatureForQuote(null)),
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
