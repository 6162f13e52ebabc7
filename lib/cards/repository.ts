import { Prisma, db, type Tx } from '../core/db';
import { listRows, orderOf, type ListRequest, bounded } from '../core/list';
import { CARD_MOVES, type CardMove, type CardState, type CardTransactionStatus } from './state';

// SQL of the cards domain: cards and their guarded state moves, card transactions, processor
// events and reveal records.
export type CardRow = Prisma.CardGetPayload<object>;
export type CardTransactionRow = Prisma.CardTransactionGetPayload<object>;
export type CardEventRow = Prisma.CardEventGetPayload<object>;

const notFoundRow = (err: unknown) => (err as { code?: string }).code === 'P2025';

export function insertCard(row: Prisma.CardUncheckedCreateInput, tx: Tx): Promise<CardRow> {
  return tx.card.create({ data: row });
}

export function findCard(platformId: string, id: string, tx: Tx): Promise<CardRow | null> {
  return tx.card.findFirst({ where: { platformId, id } });
}

/** What names cards (lib/staff/names): never the sealed number, only its last four digits. */
export function byIds(platformId: string, ids: string[], tx: Tx) {
  if (!ids.length) return Promise.resolve([]);
  return tx.card.findMany({
    where: { platformId, id: { in: ids } },
    select: { id: true, brand: true, last4: true, cardholderId: true },
  });
}

export function findCardUnscoped(id: string, tx: Tx): Promise<CardRow | null> {
  return tx.card.findUnique({ where: { id } });
}

/** Locks the card row for the rest of the transaction: one processor event or change at a time per card. */
export async function lockCard(platformId: string, id: string, tx: Tx): Promise<CardRow | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Card" WHERE "platformId" = ${platformId} AND "id" = ${id} FOR UPDATE`;
  return rows.length ? findCard(platformId, id, tx) : null;
}

/**
 * Applies a state move (with other column changes) if the card is still in one of the move's
 * `from` states: one conditional UPDATE. Returns null when the card had moved on.
 */
export async function moveCard(
  id: string,
  move: CardMove,
  data: Prisma.CardUncheckedUpdateInput,
  tx: Tx,
): Promise<CardRow | null> {
  const m = CARD_MOVES[move];
  try {
    return await tx.card.update({ where: { id, state: { in: [...m.from] } }, data: { ...data, state: m.to } });
  } catch (err) {
    if (notFoundRow(err)) return null;
    throw err;
  }
}

const MUTABLE: CardState[] = ['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN'];

/** Changes columns of a card that is not CLOSED (conditional UPDATE); null when it is. */
export async function updateOpenCard(
  id: string,
  data: Prisma.CardUncheckedUpdateInput,
  tx: Tx,
): Promise<CardRow | null> {
  try {
    return await tx.card.update({ where: { id, state: { in: MUTABLE } }, data });
  } catch (err) {
    if (notFoundRow(err)) return null;
    throw err;
  }
}

export interface CardFilter {
  cardholderId?: string;
  accountId?: string;
  platformCardId?: string;
  state?: string;
}

function cardWhere(platformId: string, f: CardFilter): Prisma.CardWhereInput {
  return {
    platformId,
    ...(f.cardholderId ? { cardholderId: f.cardholderId } : {}),
    ...(f.platformCardId ? { platformCardId: f.platformCardId } : {}),
    ...(f.state ? { state: f.state } : {}),
    ...(f.accountId ? { fundingSources: { array_contains: [f.accountId] } } : {}),
  };
}

export function listCards(platformId: string, f: CardFilter, req: ListRequest) {
  const base = cardWhere(platformId, f);
  return listRows(req, {
    rows: (after, take) => db().card.findMany({ where: { AND: [base, after] }, orderBy: orderOf(req.order), take }),
    count: (cap) => db().card.count({ where: base, ...bounded(cap) }),
  });
}

// Card transactions.
/** What names card transactions (lib/staff/names): the merchant and the card. */
export function transactionsByIds(platformId: string, ids: string[], tx: Tx) {
  if (!ids.length) return Promise.resolve([]);
  return tx.cardTransaction.findMany({
    where: { platformId, id: { in: ids } },
    select: { id: true, cardId: true, merchant: true },
  });
}

export function insertTransaction(row: Prisma.CardTransactionUncheckedCreateInput, tx: Tx) {
  return tx.cardTransaction.create({ data: row });
}

export function findTransaction(platformId: string, id: string, tx: Tx) {
  return tx.cardTransaction.findFirst({ where: { platformId, id } });
}

/** The card transaction, locked for the rest of the transaction. */
export async function lockTransaction(platformId: string, id: string, tx: Tx) {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "CardTransaction" WHERE "platformId" = ${platformId} AND "id" = ${id} FOR UPDATE`;
  return rows.length ? findTransaction(platformId, id, tx) : null;
}

/** Updates a card transaction still in one of `from` (conditional UPDATE); null when it moved on. */
export async function updateTransaction(
  id: string,
  from: readonly CardTransactionStatus[],
  data: Prisma.CardTransactionUncheckedUpdateInput,
  tx: Tx,
): Promise<CardTransactionRow | null> {
  try {
    return await tx.cardTransaction.update({ where: { id, status: { in: [...from] } }, data });
  } catch (err) {
    if (notFoundRow(err)) return null;
    throw err;
  }
}

/** A card's transaction by the processor's token for it (the card first: that is what is indexed). */
export function transactionOfToken(cardId: string, token: string, tx: Tx) {
  return tx.cardTransaction.findFirst({ where: { cardId, issuerTransactionToken: token } });
}

export function openTransactionsOf(cardId: string, tx: Tx) {
  return tx.cardTransaction.findMany({
    where: { cardId, status: { in: ['AUTHORIZED', 'PARTIALLY_SETTLED'] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

export function transactionsOfCard(platformId: string, cardId: string, limit = 100) {
  return db().cardTransaction.findMany({
    where: { platformId, cardId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

/** The transaction list's filter as it applies to card transactions (lib/payments/transactions). */
export interface CardTransactionFilter {
  customerId?: string;
  platformCustomerId?: string;
  status?: string;
  accountIdentifier?: string;
  senderAccountIdentifier?: string;
  receiverAccountIdentifier?: string;
  startDate?: Date;
  endDate?: Date;
}

function transactionWhere(platformId: string, f: CardTransactionFilter): Prisma.CardTransactionWhereInput {
  const and: Prisma.CardTransactionWhereInput[] = [{ platformId }];
  if (f.customerId) and.push({ customerId: f.customerId });
  if (f.platformCustomerId) and.push({ platformCustomerId: f.platformCustomerId });
  if (f.status) and.push({ status: f.status });
  if (f.startDate) and.push({ createdAt: { gte: f.startDate } });
  if (f.endDate) and.push({ createdAt: { lte: f.endDate } });
  if (f.accountIdentifier) and.push({ OR: [{ accountId: f.accountIdentifier }, { cardId: f.accountIdentifier }] });
  // A purchase is sent from the funding account; a credit is received into it.
  if (f.senderAccountIdentifier) and.push({ accountId: f.senderAccountIdentifier, direction: 'DEBIT' });
  if (f.receiverAccountIdentifier) and.push({ accountId: f.receiverAccountIdentifier, direction: 'CREDIT' });
  return { AND: and };
}

export function listTransactions(platformId: string, f: CardTransactionFilter, req: ListRequest) {
  const base = transactionWhere(platformId, f);
  return listRows(req, {
    rows: (after, take) =>
      db().cardTransaction.findMany({ where: { AND: [base, after] }, orderBy: orderOf(req.order), take }),
    count: (cap) => db().cardTransaction.count({ where: base, ...bounded(cap) }),
  });
}

// Processor events.
export function insertEvent(row: Prisma.CardEventUncheckedCreateInput, tx: Tx): Promise<CardEventRow> {
  return tx.cardEvent.create({ data: row });
}

/** The decision recorded for a processor's transaction token and event kind on a card, if any. */
export function eventOfToken(cardId: string, token: string, kind: string, tx: Tx): Promise<CardEventRow | null> {
  return tx.cardEvent.findFirst({
    where: { cardId, issuerTransactionToken: token, kind },
    orderBy: { createdAt: 'asc' },
  });
}

/**
 * The CardEvent a processor event left on a card transaction, found by the processor's own event
 * id (kept in details, beside the kind and amount): how a redelivered event is recognised.
 */
export function eventOfProcessorEvent(cardTransactionId: string, key: string, eventId: string, tx: Tx) {
  return tx.cardEvent.findFirst({ where: { cardTransactionId, details: { path: [key], equals: eventId } } });
}

export function eventsOfCard(platformId: string, cardId: string, limit: number) {
  return db().cardEvent.findMany({
    where: { platformId, cardId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

/** The latest merchant return on a transaction that has not been reversed. */
export function lastOpenReturn(cardTransactionId: string, tx: Tx) {
  return tx.cardEvent.findFirst({
    where: { cardTransactionId, kind: 'RETURN', outcome: 'APPROVED', reversedAt: null },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

export async function markReversed(eventId: string, at: Date, tx: Tx): Promise<boolean> {
  const n = await tx.cardEvent.updateMany({ where: { id: eventId, reversedAt: null }, data: { reversedAt: at } });
  return n.count === 1;
}

// Reveals.
export function insertReveal(row: Prisma.CardRevealUncheckedCreateInput, tx: Tx) {
  return tx.cardReveal.create({ data: row });
}

/**
 * Marks a reveal used if it is unused and unexpired at `at` and its card is still ACTIVE: true for
 * exactly one caller. The card's state is read in the same statement, so a card frozen or closed
 * after the link was minted never has its details shown through it.
 */
export async function consumeReveal(id: string, cardId: string, at: Date): Promise<boolean> {
  const rows = await db().$queryRaw<unknown[]>`
    UPDATE "CardReveal" r SET "usedAt" = ${at}::timestamp(3)
    WHERE r."id" = ${id} AND r."cardId" = ${cardId} AND r."usedAt" IS NULL AND r."expiresAt" > ${at}::timestamp(3)
      AND EXISTS (SELECT 1 FROM "Card" c WHERE c."id" = r."cardId" AND c."state" = 'ACTIVE')
    RETURNING 1`;
  return rows.length === 1;
}

/** Whether a reveal is unused and unexpired at `at` (read only: HEAD and link checks consume nothing). */
export async function revealUsable(id: string, cardId: string, at: Date): Promise<boolean> {
  return (await db().cardReveal.count({ where: { id, cardId, usedAt: null, expiresAt: { gt: at } } })) === 1;
}

export function revealsOf(cardId: string) {
  return db().cardReveal.findMany({ where: { cardId }, orderBy: { createdAt: 'asc' } });
}
