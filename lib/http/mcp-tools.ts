import { z } from 'zod';
import type { Actor } from '../core/context';
import { pageQuery } from '../core/pagination';
import * as me from '../agents/me';
import * as actions from '../agents/actions';
import { actionStatus, myExternalAccountsQuery, myInternalAccountsQuery } from '../agents/schema';
import { customerExternalAccountCreate, type ExternalAccountCreate } from '../external-accounts/schema';
import { quoteRequest } from '../payments/quotes/schema';
import { walletSignatureForQuote } from '../payments/quotes/wallet';
import { transactionStatus } from '../payments/transactions/schema';
import { transferIn, transferOut } from '../payments/transfers/schema';

// The MCP tools: each is an /agents/me operation in the parts every surface's operation has —
// its input (the same zod schema as the HTTP operation's body), whether it runs exactly once per
// idempotency key (the operations whose HTTP form is `idempotent`: they move money or create
// something), the domain call (lib/agents, where the agent's permission, policy, limits and
// approvals are checked) and what the tool answers for the call's result (as the HTTP
// operation's `answer`). lib/http/mcp-call.ts runs them.
export interface Tool {
  name: string;
  description: string;
  input: z.ZodType;
  keyed: boolean;
  call: (actor: Actor, args: never) => Promise<unknown>;
  /** What the tool answers for the call's result: a pure function of it (stored under the key). */
  present: (result: never) => unknown;
}

const page = { limit: pageQuery.limit.optional().default(20), cursor: pageQuery.cursor };
const APPROVAL =
  ' Under the policy it runs at once (status APPROVED, with its transaction) or waits for the platform (status PENDING_APPROVAL: poll get_action); a permission, account or spending-limit refusal is an error.';

const list: Tool[] = [];
function tool<S extends z.ZodType, R>(
  name: string,
  description: string,
  input: S,
  call: (actor: Actor, args: z.output<S>) => Promise<R>,
  opts: { keyed?: boolean; present?: (result: R) => unknown } = {},
) {
  list.push({
    name,
    description,
    input,
    keyed: opts.keyed ?? false,
    call: call as Tool['call'],
    present: (opts.present ?? ((r: R) => r)) as Tool['present'],
  });
}

tool(
  'whoami',
  "Who this agent is: its customer, policy (permissions, limits, approval rules) and today's and this month's usage.",
  z.object({}),
  (actor) => me.me(actor),
);
tool(
  'list_internal_accounts',
  "The customer's internal accounts with their balances (amounts in the currency's smallest unit, e.g. cents). Use their ids as sources and destinations.",
  myInternalAccountsQuery,
  (actor, q) => me.listInternalAccounts(actor, q),
);
tool(
  'list_transactions',
  "The customer's transactions, newest first; filter by status.",
  z.object({ status: transactionStatus.optional(), ...page }),
  (actor, q) => me.listTransactions(actor, { status: q.status }, { limit: q.limit, order: 'desc', cursor: q.cursor }),
);
tool(
  'get_transaction',
  "One of the customer's transactions by id.",
  z.object({ transactionId: z.string() }),
  (actor, q) => me.getTransaction(actor, q.transactionId),
);
tool(
  'create_quote',
  "Price a cross-currency transfer from one of the customer's accounts to another of its accounts or to a UMA address. lockedCurrencySide SENDING fixes the amount sent, RECEIVING the amount received; lockedCurrencyAmount is in the smallest unit. Returns the quote (id, rate, fees, expiresAt); execute it with execute_quote before it expires.",
  quoteRequest,
  (actor, q) => me.createQuote(actor, q),
  { keyed: true, present: (r) => r.quote },
);
tool('get_quote', 'A quote this agent created, by id.', z.object({ quoteId: z.string() }), (actor, q) =>
  me.getQuote(actor, q.quoteId),
);
tool(
  'execute_quote',
  'Execute a quote this agent created.' + APPROVAL,
  z.object({ quoteId: z.string() }),
  (actor, q) => actions.executeQuote(actor, q.quoteId, walletSignatureForQuote(null)),
  { keyed: true },
);
tool(
  'transfer_out',
  'Send money from an internal account of the customer to one of its external accounts, same currency (amount in the smallest unit).' +
    APPROVAL,
  transferOut,
  (actor, b) => actions.transferOut(actor, b),
  { keyed: true },
);
tool(
  'transfer_in',
  'Pull money from an external account of the customer (ACH pull) into one of its internal accounts, same currency.' +
    APPROVAL,
  transferIn,
  (actor, b) => actions.transferIn(actor, b),
  { keyed: true },
);
tool(
  'list_external_accounts',
  "The customer's external bank accounts and wallets.",
  myExternalAccountsQuery,
  (actor, q) => me.listExternalAccounts(actor, q),
);
tool(
  'add_external_account',
  'Register a bank account or wallet of the customer: currency and accountInfo (accountType and its fields, e.g. USD_ACCOUNT with accountNumber, routingNumber, bankAccountType, bankName, beneficiary).',
  customerExternalAccountCreate,
  (actor, b) => me.addExternalAccount(actor, b as ExternalAccountCreate),
  { keyed: true },
);
tool(
  'list_actions',
  'The money actions this agent submitted and their approval state (PENDING_APPROVAL, APPROVED, REJECTED, FAILED).',
  z.object({ status: actionStatus.optional(), ...page }),
  (actor, q) => me.listActions(actor, q),
);
tool(
  'get_action',
  "One of this agent's actions by id: poll it for the platform's decision.",
  z.object({ actionId: z.string() }),
  (actor, q) => me.getAction(actor, q.actionId),
);

export const TOOLS: readonly Tool[] = list;
