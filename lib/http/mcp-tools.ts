import type { z } from 'zod';
import type { Command } from '../core/command';
import * as agent from '../agents/commands';

// The MCP tools: each is an agent command (lib/agents/commands.ts) under a tool name — its input
// schema is the command's, it is exactly-once per idempotency key when the command takes one (it
// moves money or creates something), and the command's domain call checks the agent's permission,
// policy, limits and approvals. `present` is what the tool answers for the command's result (as
// the REST operation's `answer`). lib/http/mcp-call.ts runs them through the command runner.
export interface Tool {
  name: string;
  description: string;
  command: Command;
  /** Whether a call runs under an idempotency key (the command takes one). */
  keyed: boolean;
  /** What the tool answers for the command's result: a pure function of it (stored under the key). */
  present: (result: never) => unknown;
}

const APPROVAL =
  ' Under the policy it runs at once (status APPROVED, with its transaction) or waits for the platform (status PENDING_APPROVAL: poll get_action); a permission, account or spending-limit refusal is an error.';

const list: Tool[] = [];
function tool<R>(name: string, description: string, command: Command<z.ZodType, R>, present?: (result: R) => unknown) {
  list.push({
    name,
    description,
    command,
    keyed: command.idempotency !== 'none',
    present: (present ?? ((r: R) => r)) as Tool['present'],
  });
}

tool(
  'whoami',
  "Who this agent is: its customer, policy (permissions, limits, approval rules) and today's and this month's usage.",
  agent.whoami,
);
tool(
  'list_internal_accounts',
  "The customer's internal accounts with their balances (amounts in the currency's smallest unit, e.g. cents). Use their ids as sources and destinations.",
  agent.listInternalAccounts,
);
tool('list_transactions', "The customer's transactions, newest first; filter by status.", agent.listTransactions);
tool('get_transaction', "One of the customer's transactions by id.", agent.getTransaction);
tool(
  'create_quote',
  "Price a cross-currency transfer from one of the customer's accounts to another of its accounts or to a UMA address. lockedCurrencySide SENDING fixes the amount sent, RECEIVING the amount received; lockedCurrencyAmount is in the smallest unit. Returns the quote (id, rate, fees, expiresAt); execute it with execute_quote before it expires.",
  agent.createQuote,
  (r) => r.quote,
);
tool('get_quote', 'A quote this agent created, by id.', agent.getQuote);
tool('execute_quote', 'Execute a quote this agent created.' + APPROVAL, agent.executeQuote);
tool(
  'transfer_out',
  'Send money from an internal account of the customer to one of its external accounts, same currency (amount in the smallest unit).' +
    APPROVAL,
  agent.sendOut,
);
tool(
  'transfer_in',
  'Pull money from an external account of the customer (ACH pull) into one of its internal accounts, same currency.' +
    APPROVAL,
  agent.pullIn,
);
tool('list_external_accounts', "The customer's external bank accounts and wallets.", agent.listExternalAccounts);
tool(
  'add_external_account',
  'Register a bank account or wallet of the customer: currency and accountInfo (accountType and its fields, e.g. USD_ACCOUNT with accountNumber, routingNumber, bankAccountType, bankName, beneficiary).',
  agent.addExternalAccount,
);
tool(
  'list_actions',
  'The money actions this agent submitted and their approval state (PENDING_APPROVAL, APPROVED, REJECTED, FAILED).',
  agent.listActions,
);
tool('get_action', "One of this agent's actions by id: poll it for the platform's decision.", agent.getAction);

export const TOOLS: readonly Tool[] = list;
