// An AI agent's view of Corridor through the Model Context Protocol, with the official SDK:
// connects to the server's /mcp endpoint with an agent's access token, lists the tools, asks who
// it is and lists its customer's accounts; given a source account and an external account, it
// also sends $10.00 between them with transfer_out, twice under one idempotencyKey (as a client
// retrying after a lost answer would), and checks that the second call only replayed the first.
// Then it closes the connection and exits.
//
//   AGENT_TOKEN=cat_... node examples/mcp-client.mjs [SOURCE_ACCOUNT_ID EXTERNAL_ACCOUNT_ID]
//
// API (default http://localhost:3000/api/2025-10-13) names the server, as for the shell guides;
// the MCP endpoint is /mcp on the same host. Exits 1 when a tool answers an error or the repeat
// was not a replay.
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const token = process.env.AGENT_TOKEN;
if (!token) {
  console.error('set AGENT_TOKEN to the access token the agent got by redeeming its device code');
  process.exit(1);
}
const mcpUrl = new URL('/mcp', process.env.API ?? 'http://localhost:3000/api/2025-10-13');
const [source, destination] = process.argv.slice(2);

const client = new Client({ name: 'my-agent', version: '1.0.0' });
await client.connect(
  new StreamableHTTPClientTransport(mcpUrl, {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }),
);

// A tool's answer is one text item holding the API's JSON; a refusal has isError set and the
// API's error body ({status, code, message, details}) as its text. A repeated money call carries
// _meta["corridor/idempotentReplayed"].
async function call(name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.map((c) => c.text).join('');
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return { value: JSON.parse(text), text, replayed: result._meta?.['corridor/idempotentReplayed'] === true };
}

try {
  const { tools } = await client.listTools();
  console.log(`tools: ${tools.map((t) => t.name).join(', ')}`);

  const { value: me } = await call('whoami');
  console.log(`agent ${me.name} (${me.id}) acts for ${me.customerId}`);
  console.log(`spent today: ${me.usage.dailySpend} of ${me.policy.spendingLimits.dailyLimit ?? 'no limit'}`);

  const { value: accounts } = await call('list_internal_accounts', { type: 'INTERNAL_FIAT' });
  for (const a of accounts.data) console.log(`${a.id}: ${a.balance.amount} ${a.balance.currency.code} (smallest unit)`);

  if (source && destination) {
    // Money tools take an idempotencyKey: a new one per operation, the same one when retrying it.
    // Without one the JSON-RPC request id is the key, and a new connection starts its ids again.
    const args = { source: { accountId: source }, destination: { accountId: destination }, amount: 1000 };
    const idempotencyKey = randomUUID();
    const first = await call('transfer_out', { ...args, idempotencyKey });
    console.log(`transfer_out: action ${first.value.id} ${first.value.status}`);
    const again = await call('transfer_out', { ...args, idempotencyKey });
    if (!again.replayed || again.text !== first.text) throw new Error('the repeated transfer_out was not a replay');
    console.log(`the same call again, same key: the first result replayed, nothing sent twice`);
  }
} catch (err) {
  console.error(err.message);
  process.exitCode = 1;
} finally {
  // Without this the open connection keeps the process alive.
  await client.close();
}
