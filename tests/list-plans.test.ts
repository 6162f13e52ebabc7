import { beforeAll, expect, it } from 'vitest';
import { connectedAgent } from '@/lib/agents/testing';
import { activeCard, cardholder, simulate } from '@/lib/cards/testing';
import { db } from '@/lib/core/db';
import { linkAccount, registerCoin } from '@/lib/stablecoins/testing';
import { Api, newPlatform, type TestPlatform } from '@/tests/support/api';
import { planOf, statements } from '@/tests/support/sql-capture';
import { fund, type Holder } from '@/tests/support/money';

// The lists added with agents, cards and stablecoins, held to the rule every list follows
// (prisma/migrations/20261127100000_list_indexes): for each filter a list offers, the page
// statement's plan reads an index — no sequential scan — and, where the filter is one index's
// prefix, needs no sort, so its cost does not grow with the table.
let p: TestPlatform;
let h: Holder;
let cardId: string;
let agentId: string;
let agentApi: Api;
let coinId: string;
beforeAll(async () => {
  p = await newPlatform();
  h = await cardholder(p, 'Lena Lists');
  cardId = (await activeCard(p, h)).id;
  const agent = await connectedAgent(p, h.customerId);
  agentId = agent.id;
  agentApi = agent.api;
  coinId = (await registerCoin(p, 'usdb-lists', (await linkAccount(p)).id)).id;
  await fund(p, h.accounts.USD, 10_000);
  await simulate(p, cardId, 'authorization', {
    amount: 100,
    currency: { code: 'USD' },
    merchant: { descriptor: 'SHOP' },
  });
  await crowd();
});

/**
 * Thousands of other cards and card transactions of the same platform, so that the planner sees
 * what a filter saves (on a near-empty table any index giving the order looks as good).
 */
async function crowd() {
  const copies = (table: string, changes: string) =>
    db().$executeRawUnsafe(
      `INSERT INTO "${table}" SELECT (jsonb_populate_record(NULL::"${table}", to_jsonb(t) || jsonb_build_object(${changes}))).*
       FROM "${table}" t, generate_series(1, 3000) g WHERE t."platformId" = $1`,
      p.platformId,
    );
  await copies(
    'Card',
    `'id', t.id || '-' || g, 'platformCardId', t."platformCardId" || '-' || g, 'fundingSources', jsonb_build_array('InternalAccount:other-' || g)`,
  );
  await copies(
    'CardTransaction',
    `'id', t.id || '-' || g, 'cardId', 'Card:other-' || g, 'accountId', 'InternalAccount:other-' || g`,
  );
  await db().$executeRawUnsafe('ANALYZE "Card"');
  await db().$executeRawUnsafe('ANALYZE "CardTransaction"');
}

interface Case {
  path: string;
  query?: Record<string, string>;
  table: string;
  /** An OR of two indexes or a GIN index: bitmap scans, then a sort of the few rows found. */
  bitmap?: boolean;
  /** Indexes the plan must name (where reading any index of the table would also pass). */
  uses?: string[];
  api?: () => Api;
}

const cases = (): Case[] => [
  { path: '/agents', table: 'Agent' },
  { path: '/agents', query: { customerId: h.customerId }, table: 'Agent' },
  { path: '/agents/approvals', table: 'AgentAction' },
  { path: '/agents/approvals', query: { agentId }, table: 'AgentAction' },
  { path: '/agents/approvals', query: { customerId: h.customerId }, table: 'AgentAction' },
  { path: '/agents/me/actions', table: 'AgentAction', api: () => agentApi },
  { path: '/agents/me/actions', query: { status: 'APPROVED' }, table: 'AgentAction', api: () => agentApi },
  { path: '/cards', table: 'Card' },
  { path: '/cards', query: { cardholderId: h.customerId }, table: 'Card' },
  { path: '/cards', query: { state: 'FROZEN' }, table: 'Card' },
  {
    path: '/cards',
    query: { accountId: h.accounts.USD },
    table: 'Card',
    bitmap: true,
    uses: ['Card_fundingSources_idx'],
  },
  { path: '/transactions', table: 'CardTransaction' },
  { path: '/transactions', query: { customerId: h.customerId }, table: 'CardTransaction' },
  { path: '/transactions', query: { platformCustomerId: 'lists-x' }, table: 'CardTransaction' },
  { path: '/transactions', query: { status: 'COMPLETED' }, table: 'CardTransaction' },
  { path: '/transactions', query: { senderAccountIdentifier: h.accounts.USD }, table: 'CardTransaction' },
  {
    path: '/transactions',
    query: { accountIdentifier: cardId },
    table: 'CardTransaction',
    bitmap: true,
    uses: ['CardTransaction_platformId_accountId_createdAt_id_idx', 'CardTransaction_cardId_createdAt_id_idx'],
  },
  { path: '/stablecoin-provider-accounts', table: 'StablecoinProviderAccount' },
  { path: '/stablecoins', table: 'Stablecoin' },
  { path: `/stablecoins/${coinId}/operations`, table: 'StablecoinOperation' },
];

it('pages every agent, card and stablecoin list through an index, for each filter', async () => {
  const problems: string[] = [];
  for (const c of cases()) {
    const api = c.api?.() ?? p.api;
    const { sent, result } = await statements(() => api.get(c.path, { query: { limit: '5', ...c.query } }));
    expect(result.status, `${c.path} ${result.text}`).toBe(200);
    const from = new RegExp(`FROM "public"\\."${c.table}"`);
    const isCount = (text: string) => /^SELECT COUNT/i.test(text);
    const page = sent.find((s) => from.test(s.text) && /ORDER BY/.test(s.text) && !isCount(s.text));
    expect(page, `${c.path}: no page statement on ${c.table}`).toBeDefined();
    // The first page's bounded count (lib/core/list.ts) walks the same index, up to its cap.
    const count = sent.find((s) => from.test(s.text) && isCount(s.text));
    const label = `${c.path}?${new URLSearchParams(c.query)}`;
    for (const [what, statement] of [['page', page!], ...(count ? [['count', count] as const] : [])] as const) {
      const plan = await planOf(statement, { bitmap: c.bitmap });
      if (/Seq Scan/.test(plan)) problems.push(`${label} ${what}: sequential scan\n${plan}`);
      if (!c.bitmap && /Sort/.test(plan)) problems.push(`${label} ${what}: sorts\n${plan}`);
      for (const index of c.uses ?? [])
        if (!plan.includes(index)) problems.push(`${label} ${what}: not using ${index}\n${plan}`);
    }
  }
  expect(problems).toEqual([]);
});
