// An AI agent's view of Corridor through the Model Context Protocol, with the official SDK:
// connects to the server's /mcp endpoint with an agent's access token, lists the tools, asks who
// it is and lists its customer's accounts, then closes the connection and exits.
//
//   AGENT_TOKEN=cat_... node examples/mcp-client.mjs
//
// API (default http://localhost:3000/api/2025-10-13) names the server, as for the shell guides;
// the MCP endpoint is /mcp on the same host. Exits 1 when a tool answers an error.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const token = process.env.AGENT_TOKEN;
if (!token) {
  console.error('set AGENT_TOKEN to the access token the agent got by redeeming its device code');
  process.exit(1);
}
const mcpUrl = new URL('/mcp', process.env.API ?? 'http://localhost:3000/api/2025-10-13');

const client = new Client({ name: 'my-agent', version: '1.0.0' });
await client.connect(
  new StreamableHTTPClientTransport(mcpUrl, {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }),
);

// A tool's answer is one text item holding the API's JSON; a refusal has isError set and the
// API's error body ({status, code, message, details}) as its text.
async function call(name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.map((c) => c.text).join('');
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return JSON.parse(text);
}

try {
  const { tools } = await client.listTools();
  console.log(`tools: ${tools.map((t) => t.name).join(', ')}`);

  const me = await call('whoami');
  console.log(`agent ${me.name} (${me.id}) acts for ${me.customerId}`);
  console.log(`spent today: ${me.usage.dailySpend} of ${me.policy.spendingLimits.dailyLimit ?? 'no limit'}`);

  const accounts = await call('list_internal_accounts', { type: 'INTERNAL_FIAT' });
  for (const a of accounts.data) console.log(`${a.id}: ${a.balance.amount} ${a.balance.currency.code} (smallest unit)`);
} catch (err) {
  console.error(err.message);
  process.exitCode = 1;
} finally {
  // Without this the open connection keeps the process alive.
  await client.close();
}
