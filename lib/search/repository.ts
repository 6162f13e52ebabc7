import { db } from '../core/db';

// The console search's lookups besides customers (lib/customers/repository.ts): an object by its
// id, cards by their last four digits, transactions by reference or amount. Each reads one index
// (primary keys; the Transaction reference index of migration 20261126100000_lists_at_scale; the
// hash indexes on a card's last four and on amounts of 20261202000000).

export interface ObjectRow {
  kind: string;
  id: string;
  /** The customer the object belongs to, when it has one (the console shows objects by their owner). */
  customerId: string | null;
  /** The card of a card transaction. */
  cardId?: string;
  status?: string | null;
}

type Finder = (platformId: string, id: string) => Promise<ObjectRow | null>;
const one = { take: 1 } as const;

// Kinds whose ids staff paste from the API, logs and webhooks, each with where it is looked up.
const FINDERS: Record<string, Finder> = {
  Customer: async (platformId, id) => {
    const r = await db().customer.findFirst({ where: { id, platformId }, select: { id: true }, ...one });
    return r && { kind: 'Customer', id: r.id, customerId: r.id };
  },
  Transaction: async (platformId, id) => {
    const r = await db().transaction.findFirst({
      where: { id, platformId },
      select: { id: true, customerId: true, status: true },
    });
    return r && { kind: 'Transaction', id: r.id, customerId: r.customerId, status: r.status };
  },
  Card: async (platformId, id) => {
    const r = await db().card.findFirst({
      where: { id, platformId },
      select: { id: true, cardholderId: true, state: true },
    });
    return r && { kind: 'Card', id: r.id, customerId: r.cardholderId, status: r.state };
  },
  CardTransaction: async (platformId, id) => {
    const r = await db().cardTransaction.findFirst({
      where: { id, platformId },
      select: { id: true, cardId: true, customerId: true, status: true },
    });
    return r && { kind: 'CardTransaction', id: r.id, customerId: r.customerId, cardId: r.cardId, status: r.status };
  },
  Agent: async (platformId, id) => {
    const r = await db().agent.findFirst({ where: { id, platformId }, select: { id: true, customerId: true } });
    return r && { kind: 'Agent', id: r.id, customerId: r.customerId };
  },
  AgentAction: async (platformId, id) => {
    const r = await db().agentAction.findFirst({
      where: { id, platformId },
      select: { id: true, customerId: true, status: true, transactionId: true },
    });
    return r && { kind: 'AgentAction', id: r.id, customerId: r.customerId, status: r.status };
  },
  InternalAccount: owned('InternalAccount', (platformId, id) =>
    db().internalAccount.findFirst({ where: { id, platformId }, select: { id: true, customerId: true } }),
  ),
  ExternalAccount: owned('ExternalAccount', (platformId, id) =>
    db().externalAccount.findFirst({ where: { id, platformId }, select: { id: true, customerId: true } }),
  ),
  BeneficialOwner: owned('BeneficialOwner', (platformId, id) =>
    db().beneficialOwner.findFirst({ where: { id, platformId }, select: { id: true, customerId: true } }),
  ),
  Verification: owned('Verification', (platformId, id) =>
    db().verification.findFirst({ where: { id, platformId }, select: { id: true, customerId: true } }),
  ),
  Document: owned('Document', (platformId, id) =>
    db().document.findFirst({ where: { id, platformId }, select: { id: true, customerId: true } }),
  ),
  Quote: owned('Quote', (platformId, id) =>
    db().quote.findFirst({ where: { id, platformId }, select: { id: true, customerId: true } }),
  ),
};

function owned(
  kind: string,
  find: (platformId: string, id: string) => Promise<{ id: string; customerId: string | null } | null>,
): Finder {
  return async (platformId, id) => {
    const r = await find(platformId, id);
    return r && { kind, id: r.id, customerId: r.customerId };
  };
}

export const SEARCHABLE_KINDS = Object.keys(FINDERS);

/** The object with this id: `Kind:uuid` is looked up where that kind lives; a bare uuid under every kind. */
export async function objectsById(platformId: string, q: string): Promise<ObjectRow[]> {
  const m = /^([A-Za-z]+):(.+)$/.exec(q);
  if (m) {
    const find = FINDERS[m[1]];
    const row = find ? await find(platformId, q) : null;
    return row ? [row] : [];
  }
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(q)) return [];
  const found = await Promise.all(Object.entries(FINDERS).map(([kind, find]) => find(platformId, `${kind}:${q}`)));
  return found.filter((r): r is ObjectRow => r !== null);
}

export function cardsByLast4(platformId: string, last4: string, limit: number) {
  return db().card.findMany({
    where: { platformId, last4 },
    select: { id: true, cardholderId: true, last4: true, state: true, brand: true, createdAt: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

const transactionFields = {
  id: true,
  customerId: true,
  status: true,
  type: true,
  reference: true,
  description: true,
  sentAmount: true,
  sentCurrency: true,
  receivedAmount: true,
  receivedCurrency: true,
  createdAt: true,
} as const;

export function transactionsByReference(platformId: string, reference: string, limit: number) {
  return db().transaction.findMany({
    where: { platformId, reference },
    select: transactionFields,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

/**
 * Transactions sending or receiving one of these amounts: each `{currencies, amount}` is the typed
 * amount read with those currencies' decimals (1,000 is 100000 cents but 1000 francs).
 */
export function transactionsByAmount(
  platformId: string,
  readings: { currencies: string[]; amount: bigint }[],
  limit: number,
) {
  return db().transaction.findMany({
    where: {
      platformId,
      OR: readings.flatMap((r) => [
        { sentAmount: r.amount, sentCurrency: { in: r.currencies } },
        { receivedAmount: r.amount, receivedCurrency: { in: r.currencies } },
      ]),
    },
    select: transactionFields,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

export type TransactionHit = Awaited<ReturnType<typeof transactionsByReference>>[number];

/** Names of customers by id, for hits that belong to one (deleted customers included). */
export async function customerNames(platformId: string, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db().customer.findMany({
    where: { platformId, id: { in: [...new Set(ids)] } },
    select: { id: true, fullName: true, profile: true, platformCustomerId: true },
  });
  return new Map(
    rows.map((r) => {
      const legal = (r.profile as { businessInfo?: { legalName?: string } } | null)?.businessInfo?.legalName;
      return [r.id, r.fullName ?? legal ?? r.platformCustomerId];
    }),
  );
}
