import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import type { Actor } from '../core/context';
import { runAs } from '../core/context';
import { DomainError } from '../core/errors';
import { stringifyJson } from '../core/json';
import { pageQuery } from '../core/pagination';
import * as me from '../agents/me';
import * as actions from '../agents/actions';
import { actionStatus, myExternalAccountsQuery, myInternalAccountsQuery } from '../agents/schema';
import { customerExternalAccountCreate, type ExternalAccountCreate } from '../external-accounts/schema';
import { quoteRequest } from '../payments/quotes/schema';
import { walletSignatureForQuote } from '../payments/quotes/wallet';
import { transactionStatus } from '../payments/transactions/schema';
import { transferIn, transferOut } from '../payments/transfers/schema';
import { authenticate } from './authenticate';
import { clientAddress } from './client-address';
import { errorResponse } from './endpoint';
import { errorBody } from './errors';
import { toSchema } from './openapi';
import { parseBodyOrThrow } from '../core/validation';

// The MCP server (Model Context Protocol, Streamable HTTP, stateless) at /mcp: AI agents use
// Corridor with their agent access token. Each tool is an /agents/me operation: its input is
// validated by the same zod schema as the HTTP operation's, and it calls the same service function
// (lib/agents), so the agent's policy, limits and approvals apply exactly as over HTTP. A refusal
// (policy, limit, validation) comes back as a tool error carrying the API's error body.

type Result = { content: { type: 'text'; text: string }[]; isError?: boolean };

async function answer(fn: () => Promise<unknown>): Promise<Result> {
  try {
    const out = await fn();
    return { content: [{ type: 'text', text: out === undefined ? 'Done.' : stringifyJson(out) }] };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { isError: true, content: [{ type: 'text', text: stringifyJson(errorBody(err)) }] };
  }
}

const page = { limit: pageQuery.limit.optional().default(20), cursor: pageQuery.cursor };
const APPROVAL =
  ' Under the policy it runs at once (status APPROVED, with its transaction) or waits for the platform (status PENDING_APPROVAL: poll get_action); a permission, account or spending-limit refusal is an error.';

interface Tool {
  name: string;
  description: string;
  input: z.ZodType;
  run: (args: never) => unknown;
}

function tools(actor: Actor): Tool[] {
  const list: Tool[] = [];
  const tool = <S extends z.ZodType>(name: string, description: string, input: S, run: (a: z.output<S>) => unknown) =>
    list.push({ name, description, input, run: run as (args: never) => unknown });

  tool(
    'whoami',
    "Who this agent is: its customer, policy (permissions, limits, approval rules) and today's and this month's usage.",
    z.object({}),
    () => me.me(actor),
  );
  tool(
    'list_internal_accounts',
    "The customer's internal accounts with their balances (amounts in the currency's smallest unit, e.g. cents). Use their ids as sources and destinations.",
    myInternalAccountsQuery,
    (q) => me.listInternalAccounts(actor, q),
  );
  tool(
    'list_transactions',
    "The customer's transactions, newest first; filter by status.",
    z.object({ status: transactionStatus.optional(), ...page }),
    (q) => me.listTransactions(actor, { status: q.status }, { limit: q.limit, order: 'desc', cursor: q.cursor }),
  );
  tool('get_transaction', "One of the customer's transactions by id.", z.object({ transactionId: z.string() }), (q) =>
    me.getTransaction(actor, q.transactionId),
  );
  tool(
    'create_quote',
    "Price a cross-currency transfer from one of the customer's accounts to another of its accounts or to a UMA address. lockedCurrencySide SENDING fixes the amount sent, RECEIVING the amount received; lockedCurrencyAmount is in the smallest unit. Returns the quote (id, rate, fees, expiresAt); execute it with execute_quote before it expires.",
    quoteRequest,
    (q) => me.createQuote(actor, q).then((r) => r.quote),
  );
  tool('get_quote', 'A quote this agent created, by id.', z.object({ quoteId: z.string() }), (q) =>
    me.getQuote(actor, q.quoteId),
  );
  tool('execute_quote', 'Execute a quote this agent created.' + APPROVAL, z.object({ quoteId: z.string() }), (q) =>
    actions.executeQuote(actor, q.quoteId, walletSignatureForQuote(null)),
  );
  tool(
    'transfer_out',
    'Send money from an internal account of the customer to one of its external accounts, same currency (amount in the smallest unit).' +
      APPROVAL,
    transferOut,
    (b) => actions.transferOut(actor, b),
  );
  tool(
    'transfer_in',
    'Pull money from an external account of the customer (ACH pull) into one of its internal accounts, same currency.' +
      APPROVAL,
    transferIn,
    (b) => actions.transferIn(actor, b),
  );
  tool('list_external_accounts', "The customer's external bank accounts and wallets.", myExternalAccountsQuery, (q) =>
    me.listExternalAccounts(actor, q),
  );
  tool(
    'add_external_account',
    'Register a bank account or wallet of the customer: currency and accountInfo (accountType and its fields, e.g. USD_ACCOUNT with accountNumber, routingNumber, bankAccountType, bankName, beneficiary).',
    customerExternalAccountCreate,
    (b) => me.addExternalAccount(actor, b as ExternalAccountCreate),
  );
  tool(
    'list_actions',
    'The money actions this agent submitted and their approval state (PENDING_APPROVAL, APPROVED, REJECTED, FAILED).',
    z.object({ status: actionStatus.optional(), ...page }),
    (q) => me.listActions(actor, q),
  );
  tool(
    'get_action',
    "One of this agent's actions by id: poll it for the platform's decision.",
    z.object({ actionId: z.string() }),
    (q) => me.getAction(actor, q.actionId),
  );
  return list;
}

/**
 * The MCP server for one request. Tool inputs are described by the JSON Schema the served OpenAPI
 * document uses for the same zod schemas (amounts as int64 integers) and parsed by them exactly
 * as the HTTP edge parses a body: the same INVALID_INPUT error comes back as a tool error.
 */
function mcpServer(actor: Actor): Server {
  const list = tools(actor);
  const server = new Server({ name: 'corridor', version: '2025-10-13' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: list.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: toSchema(t.input, 'input') as { type: 'object' },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const t = list.find((x) => x.name === req.params.name);
    if (!t) return { isError: true, content: [{ type: 'text', text: `No tool named ${req.params.name}` }] };
    return answer(async () => t.run(parseBodyOrThrow(t.input, req.params.arguments ?? {}) as never));
  });
  return server;
}

/** One MCP request: the agent's bearer token authenticates it; a fresh stateless server answers it. */
export async function handleMcp(req: Request): Promise<Response> {
  let actor: Actor;
  try {
    actor = await authenticate(req.headers.get('authorization'), 'agent', clientAddress(req.headers));
  } catch (err) {
    if (err instanceof DomainError) return errorResponse(err);
    throw err;
  }
  return runAs(actor, async () => {
    const server = mcpServer(actor);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    return transport.handleRequest(req);
  });
}
