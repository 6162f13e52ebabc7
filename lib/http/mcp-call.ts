import { z } from 'zod';
import type { Actor } from '../core/context';
import { sha256Hex } from '../core/crypto/secrets';
import { canonicalJson, stringifyJson } from '../core/json';
import { parseOrThrow } from '../core/validation';
import { runCommandKeyed } from '../core/command';
import { errorAnswer, toDomainError } from './endpoint';
import { requestHash, type Answer } from '../core/keyed';
import { toSchema } from './openapi';
import type { Tool } from './mcp-tools';

// One tools/call, run as the REST operation runs: arguments read as its body is (the same limits,
// reserved names, schema and strict-mode unknown fields), and a tool that moves money or creates
// something run under an idempotency key through the same protocol (lib/http/idempotency.ts): a
// repeat gets the first call's answer byte for byte, other arguments under the key are refused.
//
// The key is the `idempotencyKey` argument or else the JSON-RPC request id, scoped to the agent
// and the tool: two agents' (or two tools') request id 1 are different calls. A client that reuses
// request ids for different calls (a new connection starting again at 1, say) must send
// idempotencyKey, or its second call is taken for a repeat of the first (same arguments: the
// first answer again; other arguments: refused). Keys are kept 24 hours, as the API's are.

export type ToolResult = {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const keyArgument = z
  .string()
  .regex(KEY_PATTERN, 'must be 1-255 visible ASCII characters (a UUID is recommended)')
  .describe(
    "Makes the call exactly-once: a repeat with the same key within 24 hours answers with the first call's result and does nothing again; the same key with other arguments is refused. Send a new unique value (a UUID) for each new operation. Without it the JSON-RPC request id is the key (per agent and tool), so a client that reuses request ids for different calls, e.g. across connections, must send idempotencyKey.",
  );
const keyFields = z.object({ idempotencyKey: keyArgument.optional() });

/** A tool's input as JSON Schema (amounts as int64 integers), keyed tools with `idempotencyKey`. */
export function inputSchema(t: Tool): { type: 'object'; properties?: Record<string, unknown> } {
  const schema = toSchema(t.command.input, 'input') as { type: 'object'; properties?: Record<string, unknown> };
  if (!t.keyed) return schema;
  const extra = toSchema(keyFields, 'input') as { properties: Record<string, unknown> };
  return { ...schema, properties: { ...schema.properties, ...extra.properties } };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The operation's arguments, and the idempotencyKey beside them when the tool takes one. */
function split(t: Tool, raw: unknown): { args: unknown; key?: unknown } {
  if (!t.keyed || !isObject(raw) || !Object.hasOwn(raw, 'idempotencyKey')) return { args: raw };
  // Own-property copy: a `__proto__` key stays a field here, for the body check to refuse.
  const { idempotencyKey, ...args } = raw;
  return { args, key: idempotencyKey };
}

/** The key's text for a JSON-RPC id: as sent when short and printable, else its digest. */
function rpcIdKey(id: string | number): string {
  const text = stringifyJson(id);
  return KEY_PATTERN.test(text) && text.length <= 128 ? text : `sha256:${sha256Hex(text)}`;
}

const textResult = (a: Answer, replayed = false): ToolResult => ({
  content: [{ type: 'text', text: a.status === 204 ? 'Done.' : a.text }],
  ...(a.status >= 400 ? { isError: true } : {}),
  ...(replayed ? { _meta: { 'corridor/idempotentReplayed': true } } : {}),
});

export interface CallContext {
  actor: Actor & { kind: 'agent' };
  /** The HTTP request carrying the call (for the error log line). */
  req: Request;
  requestId: string | number;
}

/** Runs one call of `t` with its arguments as received; every refusal is a tool error. */
export async function callTool(t: Tool, raw: unknown, ctx: CallContext): Promise<ToolResult> {
  const toError = (err: unknown) => errorAnswer(toDomainError(err, ctx.req));
  const answer = (result: unknown): Answer => {
    const out = t.present(result as never);
    return out === undefined ? { status: 204, text: '' } : { status: 200, text: stringifyJson(out) };
  };
  try {
    const { args, key } = split(t, raw);
    let own: { key: string; space: string } | null = null;
    if (t.keyed) {
      const { idempotencyKey } = parseOrThrow(keyFields, { idempotencyKey: key }, 'request body');
      // The spaces keep these apart from every REST key (`agent:<id>:<key>`, keys have no spaces).
      own =
        idempotencyKey !== undefined
          ? { key: idempotencyKey, space: `mcp ${t.name} key:` }
          : { key: rpcIdKey(ctx.requestId), space: `mcp ${t.name} rpc:` };
    }
    const hash = requestHash('MCP', `tools/call/${t.name}`, canonicalJson(args));
    const out = await runCommandKeyed(
      t.command,
      ctx.actor,
      args,
      { key: null, ...own, hash },
      { answer, error: toError },
    );
    return textResult(out, out.source === 'replay');
  } catch (err) {
    return textResult(toError(err));
  }
}
