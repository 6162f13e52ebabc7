import { expect } from 'vitest';
import { parseJson, stringifyJson } from '@/lib/core/json';
import { PEER_ADDRESS_HEADER } from '@/lib/http/client-address';
import { POST } from '@/app/mcp/route';

// Raw JSON-RPC to the MCP route handler, as an MCP client sends it over Streamable HTTP (the SDK's
// client sends neither batches nor chosen request ids, which these tests need).
export interface McpAnswer {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface ToolResult {
  content: { type: string; text: string }[];
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

const hex16 = () => Math.floor(Math.random() * 0x10000).toString(16);

/** Posts `body` (a value, or exact text or bytes) to /mcp with the agent's token. */
export async function mcpPost(token: string, body: unknown): Promise<McpAnswer> {
  const raw = typeof body === 'string' || body instanceof Uint8Array ? body : stringifyJson(body);
  const res = await POST(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        [PEER_ADDRESS_HEADER]: `2001:db8:${hex16()}:${hex16()}::1`,
      },
      body: raw as BodyInit,
    }),
  );
  const text = await res.text();
  return { status: res.status, text, body: text ? parseJson(text) : undefined };
}

export const toolCall = (id: number | string, name: string, args: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** One tools/call; its JSON-RPC result (a tool result, possibly a tool error). */
export async function callTool(token: string, id: number | string, name: string, args: unknown): Promise<ToolResult> {
  const res = await mcpPost(token, toolCall(id, name, args));
  expect(res.status, res.text).toBe(200);
  expect(res.body.id, res.text).toBe(id);
  expect(res.body.result, res.text).toBeDefined();
  return res.body.result as ToolResult;
}

/** The JSON a tool answered with (its one text content). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const toolJson = (r: ToolResult): any => parseJson(r.content[0].text);

/** Asserts a tool error carrying the API's error body with this code; returns the body. */
export function expectToolError(r: ToolResult, code: string) {
  expect(r.isError, JSON.stringify(r)).toBe(true);
  const body = toolJson(r);
  expect(body).toMatchObject({ code });
  return body;
}
