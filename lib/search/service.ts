import { parseMajorAmount } from '../core/amount-input';
import { TABLE_CURRENCIES } from './currencies';
import * as customers from '../customers/service';
import * as repo from './repository';

// The console's one search box: whatever staff paste or type — a customer's name or any word of
// it, an email or part of it, a business name, a platform customer id, any object id, a card's
// last four digits, a transaction reference, an amount ("1,000.00", "1000 USD") — answered from
// indexes only (see the repositories), grouped by what was found, with owners by name.

export const SEARCH_LIMIT = 10;
const MAX_QUERY = 200;

export interface SearchAnswer {
  query: string;
  customers: Awaited<ReturnType<typeof customers.list>>['data'];
  moreCustomers: boolean;
  objects: (repo.ObjectRow & { customerName: string | null })[];
  cards: (Awaited<ReturnType<typeof repo.cardsByLast4>>[number] & { customerName: string | null })[];
  transactions: (repo.TransactionHit & { customerName: string | null; matched: 'reference' | 'amount' })[];
}

/**
 * An amount as typed, read with the decimals of each currency it could be in: with a currency
 * code ("1,000.00 USD", "USD 1,000.00") that currency only; without one, every currency in
 * whose decimals it reads.
 */
export function amountReadings(q: string): { currencies: string[]; amount: bigint }[] {
  const m = /^(?:([A-Za-z]{3,4})\s*)?([\d.,\s]*\d[\d.,\s]*?)(?:\s*([A-Za-z]{3,4}))?$/.exec(q.trim());
  if (!m || (m[1] && m[3])) return [];
  const code = (m[1] ?? m[3])?.toUpperCase();
  const groups = code
    ? TABLE_CURRENCIES.filter((g) => g.currencies.includes(code)).map((g) => ({ ...g, currencies: [code] }))
    : TABLE_CURRENCIES;
  return groups.flatMap((g) => {
    const r = parseMajorAmount(m[2], g.currencies[0]);
    return r.ok && r.minor > 0n ? [{ currencies: g.currencies, amount: r.minor }] : [];
  });
}

export async function search(platformId: string, text: string): Promise<SearchAnswer> {
  const q = text.trim().slice(0, MAX_QUERY);
  const readings = amountReadings(q);
  const [people, objects, cards, byReference, byAmount] = await Promise.all([
    customers.list(platformId, { search: q }, SEARCH_LIMIT),
    repo.objectsById(platformId, q),
    /^\d{4}$/.test(q) ? repo.cardsByLast4(platformId, q, SEARCH_LIMIT) : [],
    repo.transactionsByReference(platformId, q, SEARCH_LIMIT),
    readings.length ? repo.transactionsByAmount(platformId, readings, SEARCH_LIMIT) : [],
  ]);
  const names = await repo.customerNames(
    platformId,
    [
      ...objects.map((o) => o.customerId),
      ...cards.map((c) => c.cardholderId),
      ...byReference.map((t) => t.customerId),
      ...byAmount.map((t) => t.customerId),
    ].filter((id): id is string => !!id),
  );
  const nameOf = (id: string | null) => (id ? (names.get(id) ?? null) : null);
  const seen = new Set(byReference.map((t) => t.id));
  return {
    query: q,
    customers: people.data,
    moreCustomers: people.hasMore,
    objects: objects.map((o) => ({ ...o, customerName: nameOf(o.customerId) })),
    cards: cards.map((c) => ({ ...c, customerName: nameOf(c.cardholderId) })),
    transactions: [
      ...byReference.map((t) => ({ ...t, customerName: nameOf(t.customerId), matched: 'reference' as const })),
      ...byAmount
        .filter((t) => !seen.has(t.id))
        .map((t) => ({ ...t, customerName: nameOf(t.customerId), matched: 'amount' as const })),
    ],
  };
}
