import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Actor } from '../core/context';
import { runAs } from '../core/context';
import { DomainError, invalidInput } from '../core/errors';
import { stringifyJson } from '../core/json';
import { authenticate } from './authenticate';
import { readJsonBody } from './body';
import { clientAddress } from './client-address';
import { errorResponse } from './endpoint';
import { ERROR_STATUS, errorBody } from './errors';
import { callTool, inputSchema } from './mcp-call';
import { TOOLS } from './mcp-tools';

// The MCP server (Model Context Protocol, Streamable HTTP, stateless) at /mcp: AI agents use
// Corridor with their agent access token. Each tool is an /agents/me operation (lib/http/mcp-tools.ts)
// calling the same service function, so the agent's policy, limits and approvals apply exactly as
// over HTTP; its arguments are read as that operation's body is and it is exactly-once as that
// operation is (lib/http/mcp-call.ts). A refusal comes back as a tool error carrying the API's
// error body.

/** Most calls one JSON-RPC batch may carry; a larger batch is refused whole, nothing run. */
export const MAX_BATCH = 20;

type RawArguments = Map<string | number, unknown>;

/** Told to every client at initialization: how calls that move money stay exactly-once. */
const KEYED = TOOLS.filter((t) => t.keyed).map((t) => t.name);
const INSTRUCTIONS =
  `Tools that move money or create something (${KEYED.join(', ')}) run exactly once per idempotencyKey: ` +
  'send a new unique key (a UUID) with each new operation and the same key when retrying it; a repeat answers ' +
  'with the first result. Without idempotencyKey the JSON-RPC request id is the key, so a client that reuses ' +
  'request ids for different calls (e.g. a new connection starting again at 0) must send idempotencyKey. ' +
  `A batch holds at most ${MAX_BATCH} messages.`;

/** The MCP server for one request; tool arguments are taken as received (`raw`, by request id). */
function mcpServer(actor: Actor & { kind: 'agent' }, req: Request, raw: RawArguments): Server {
  const server = new Server(
    { name: 'corridor', version: '2025-10-13' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: inputSchema(t) })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
    const t = TOOLS.find((x) => x.name === call.params.name);
    if (!t) return { isError: true, content: [{ type: 'text', text: `No tool named ${call.params.name}` }] };
    // The SDK's own parsing of the message drops a top-level `__proto__` argument: the arguments
    // are checked as they arrived, as a REST body is.
    const args = raw.has(extra.requestId) ? raw.get(extra.requestId) : call.params.arguments;
    return callTool(t, args ?? {}, { actor, req, requestId: extra.requestId });
  });
  return server;
}

/** A JSON-RPC error answering the whole HTTP request, with the API's error body as its data. */
function rpcError(code: number, err: DomainError): Response {
  const body = { jsonrpc: '2.0', id: null, error: { code, message: err.message, data: errorBody(err) } };
  return new Response(stringifyJson(body), {
    status: ERROR_STATUS[err.code],
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Reads a POST's JSON-RPC message (or batch) as the API reads a body — size limit, UTF-8, lossless
 * numbers — and collects each tools/call's arguments by request id. A batch over MAX_BATCH, or
 * one that repeats a request id (its answers could not be told apart), is refused whole.
 */
async function readMessages(req: Request): Promise<Response | { parsedBody: unknown; raw: RawArguments }> {
  let value: unknown;
  try {
    value = (await readJsonBody(req)).value;
  } catch (err) {
    if (err instanceof DomainError) return rpcError(-32700, err);
    throw err;
  }
  if (value === undefined)
    return rpcError(
      -32700,
      invalidInput('Parse error: the request has no body', [{ field: '(body)', message: 'is required' }]),
    );
  const messages = Array.isArray(value) ? value : [value];
  if (messages.length > MAX_BATCH)
    return rpcError(
      -32600,
      invalidInput(`A JSON-RPC batch holds at most ${MAX_BATCH} messages (got ${messages.length}); none was run`, [
        { field: '(body)', message: `must hold at most ${MAX_BATCH} messages` },
      ]),
    );
  const raw: RawArguments = new Map();
  const ids = new Set<unknown>();
  for (const m of messages) {
    if (!isObject(m) || typeof m.method !== 'string' || !('id' in m)) continue;
    if (ids.has(m.id))
      return rpcError(
        -32600,
        invalidInput(`JSON-RPC request id ${stringifyJson(m.id)} is used twice in the batch; none was run`, [
          { field: '(body)', message: 'must not repeat a request id' },
        ]),
      );
    ids.add(m.id);
    if (m.method === 'tools/call' && isObject(m.params)) raw.set(m.id as string | number, m.params.arguments);
  }
  return { parsedBody: value, raw };
}

/** One MCP request: the agent's bearer token authenticates it; a fresh stateless server answers it. */
export async function handleMcp(req: Request): Promise<Response> {
  let actor: Actor & { kind: 'agent' };
  try {
    const who = await authenticate(req.headers.get('authorization'), 'agent', clientAddress(req.headers));
    if (who.kind !== 'agent') throw new Error('agent authentication answered with another kind of actor');
    actor = who;
  } catch (err) {
    if (err instanceof DomainError) return errorResponse(err);
    throw err;
  }
  return runAs(actor, async () => {
    let body: { parsedBody: unknown; raw: RawArguments } | undefined;
    if (req.method === 'POST') {
      const read = await readMessages(req);
      if (read instanceof Response) return read;
      body = read;
    }
    const server = mcpServer(actor, req, body?.raw ?? new Map());
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    return transport.handleRequest(req, body && { parsedBody: body.parsedBody });
  });
}
