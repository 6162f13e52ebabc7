import type { Tx } from '../core/db';
import * as accounts from '../accounts/repository';
import * as agents from '../agents/repository';
import * as cards from '../cards/repository';
import * as customers from '../customers/repository';
import * as external from '../external-accounts/repository';
import * as transactions from '../payments/transactions/repository';
import { customerName, payeeOf } from './approval-context';

// The console shows people and accounts by name with the id one click away. Pages collect the
// ids a table holds and resolve them here in one read per kind (three queries for a page of 25
// rows, not one per row).

export interface Named {
  id: string;
  /**
   * "Ada Lovelace", "USD account of Ada Lovelace", "Grace Hopper, Banco Azteca (MX)",
   * "VISA •••• 4242 of Ada Lovelace", "Invoice bot (agent of Ada Lovelace)",
   * "Ada Lovelace · INV-42" (a transaction: its customer and its reference),
   * "BLUE BOTTLE COFFEE on VISA •••• 4242 of Ada Lovelace" (a card transaction).
   */
  name: string;
  /** Where the console shows the object itself, when it has a page. */
  href?: string;
}

const customerHref = (id: string) => `/console/customers/${encodeURIComponent(id)}`;

/** A card purchase by its merchant and its card (named before it). */
function cardTransactionName(t: { id: string; cardId: string; merchant: unknown }, card: Named | undefined): Named {
  const merchant = (t.merchant as { descriptor?: string } | null)?.descriptor || 'A card purchase';
  return {
    id: t.id,
    name: card ? `${merchant} on ${card.name}` : merchant,
    href: `/console/cards/${encodeURIComponent(t.cardId)}/transactions/${encodeURIComponent(t.id)}`,
  };
}

export async function namesOf(platformId: string, ids: Iterable<string>, tx: Tx): Promise<Map<string, Named>> {
  const wanted = [...new Set([...ids].filter(Boolean))];
  const of = (kind: string) => wanted.filter((id) => id.startsWith(`${kind}:`));
  const [internals, externals, agentRows, transactionRows, cardTransactions] = await Promise.all([
    accounts.byIds(of('InternalAccount'), tx),
    external.byIds(platformId, of('ExternalAccount'), tx),
    agents.byIds(platformId, of('Agent'), tx),
    transactions.byIds(platformId, of('Transaction'), tx),
    cards.transactionsByIds(platformId, of('CardTransaction'), tx),
  ]);
  // A card transaction is named by its merchant and its card: the cards asked for and theirs, in one read.
  const cardRows = await cards.byIds(
    platformId,
    [...new Set([...of('Card'), ...cardTransactions.map((t) => t.cardId)])],
    tx,
  );
  const mine = internals.filter((a) => a.platformId === platformId);
  const customerIds = [
    ...new Set([
      ...of('Customer'),
      ...mine.flatMap((a) => (a.customerId ? [a.customerId] : [])),
      ...cardRows.map((c) => c.cardholderId),
      ...agentRows.map((a) => a.customerId),
      ...transactionRows.flatMap((t) => (t.customerId ? [t.customerId] : [])),
    ]),
  ];
  const people = new Map(
    (await customers.byIds(platformId, customerIds, tx)).map((c) => [c.id, customerName(c) ?? c.platformCustomerId]),
  );
  const named = new Map<string, Named>();
  for (const [id, name] of people) named.set(id, { id, name, href: customerHref(id) });
  for (const a of mine) {
    const owner = a.customerId ? (people.get(a.customerId) ?? 'a customer') : 'the platform';
    named.set(a.id, {
      id: a.id,
      name: `${a.currency} account of ${owner}`,
      href: a.customerId ? customerHref(a.customerId) : undefined,
    });
  }
  for (const row of externals) {
    const p = payeeOf(row);
    const where = [p.bank, p.country].filter(Boolean).join(', ');
    named.set(row.id, {
      id: row.id,
      name: where ? `${p.name} (${where})` : p.name,
      href: row.customerId ? customerHref(row.customerId) : undefined,
    });
  }
  for (const c of cardRows) {
    const holder = people.get(c.cardholderId) ?? 'a customer';
    named.set(c.id, {
      id: c.id,
      name: `${c.brand} •••• ${c.last4} of ${holder}`,
      href: `/console/cards/${encodeURIComponent(c.id)}`,
    });
  }
  for (const t of cardTransactions) named.set(t.id, cardTransactionName(t, named.get(t.cardId)));
  for (const a of agentRows) {
    const owner = people.get(a.customerId) ?? 'a customer';
    named.set(a.id, {
      id: a.id,
      name: `${a.name} (agent of ${owner})`,
      href: `/console/agents/${encodeURIComponent(a.id)}`,
    });
  }
  for (const t of transactionRows) {
    // As the transactions list shows one: its customer, and the platform's reference (or the
    // description) that tells it from the customer's other payments.
    const owner = t.customerId ? people.get(t.customerId) : undefined;
    const label = t.reference ?? t.description ?? undefined;
    named.set(t.id, {
      id: t.id,
      name: [owner, label].filter(Boolean).join(' · ') || 'Platform transaction',
      href: `/console/transactions/${encodeURIComponent(t.id)}`,
    });
  }
  return named;
}
