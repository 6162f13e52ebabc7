import { db, Prisma, queryIn, type Tx } from '../core/db';
import { insertAll, kysely, type RowWrite } from '../core/sql';
import { prepared } from '../core/prepared';
import { countFromCounters, listRows, orderOf, type ListRequest, type Listed, bounded } from '../core/list';

// Without the columns the database generates (searchEmail, searchName): never written by the app.
export type CustomerRow = Omit<Prisma.CustomerGetPayload<object>, 'searchEmail' | 'searchName'>;

/** A new customer and the rows created with it (accounts, events), in one statement. */
export async function insertWith(row: CustomerRow, writes: RowWrite[], tx: Tx): Promise<void> {
  await queryIn(tx, insertAll([{ table: 'Customer', row: { ...row } }, ...writes]));
}

/**
 * Any customer of the platform, deleted ones included. A plain SQL read: it serves every customer
 * GET and many checks, and the Prisma query builder costs more CPU than the read itself.
 */
export async function findById(platformId: string, id: string, tx: Tx): Promise<CustomerRow | null> {
  const rows = await queryIn<CustomerRow>(tx, byId({ platformId, id }));
  return rows[0] ?? null;
}
const byId = prepared((p: { platformId: string; id: string }) =>
  kysely.selectFrom('Customer').selectAll().where('id', '=', p.id).where('platformId', '=', p.platformId),
);

/** Customers of the platform by id (deleted ones included), for showing names beside ids. */
export function byIds(platformId: string, ids: string[], tx: Tx): Promise<CustomerRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return queryIn<CustomerRow>(
    tx,
    Prisma.sql`SELECT * FROM "Customer" WHERE "platformId" = ${platformId} AND "id" IN (${Prisma.join(ids)})`,
  );
}

/** The customer row locked for update, so concurrent changes to one customer serialize. */
export async function lock(platformId: string, id: string, tx: Tx): Promise<CustomerRow | null> {
  const rows = await queryIn<CustomerRow>(tx, lockById({ platformId, id }));
  return rows[0] ?? null;
}
const lockById = prepared((p: { platformId: string; id: string }) =>
  kysely.selectFrom('Customer').selectAll().where('id', '=', p.id).where('platformId', '=', p.platformId).forUpdate(),
);

export function findActiveByPlatformCustomerId(platformId: string, platformCustomerId: string, tx: Tx) {
  return tx.customer.findFirst({ where: { platformId, platformCustomerId, deletedAt: null }, select: { id: true } });
}

export async function umaAddressTaken(umaAddress: string, exceptId: string | null, tx: Tx): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Customer" WHERE lower("umaAddress") = lower(${umaAddress}) AND "deletedAt" IS NULL
    ${exceptId ? Prisma.sql`AND "id" <> ${exceptId}` : Prisma.empty} LIMIT 1`;
  return rows.length > 0;
}

export async function update(id: string, data: Prisma.CustomerUncheckedUpdateInput, tx: Tx): Promise<CustomerRow> {
  return tx.customer.update({ where: { id }, data });
}

/** Writes only the contact verification state (and the update time); used by lib/contact-verification. */
export async function setContactVerification(
  id: string,
  contactVerification: Prisma.InputJsonValue,
  updatedAt: Date,
  tx: Tx,
): Promise<CustomerRow> {
  return tx.customer.update({ where: { id }, data: { contactVerification, updatedAt } });
}

export interface CustomerFilter {
  platformCustomerId?: string;
  customerType?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  region?: string;
  currency?: string;
  umaAddress?: string;
  includeDeleted?: boolean;
  /** Console filters: KYC status (individuals) or KYB status (businesses); UNVERIFIED includes unset. */
  verificationStatus?: string;
  /** Console search: an id or platform customer id exactly, or any part of the email or the name. */
  search?: string;
}

function consoleFilters(f: CustomerFilter): Prisma.CustomerWhereInput[] {
  const and: Prisma.CustomerWhereInput[] = [];
  if (f.verificationStatus) {
    const s = f.verificationStatus;
    const either = (field: 'kycStatus' | 'kybStatus', type: string): Prisma.CustomerWhereInput => ({
      customerType: type,
      ...(s === 'UNVERIFIED' ? { OR: [{ [field]: s }, { [field]: null }] } : { [field]: s }),
    });
    and.push({ OR: [either('kycStatus', 'INDIVIDUAL'), either('kybStatus', 'BUSINESS')] });
  }
  const q = f.search?.trim();
  if (q) and.push({ OR: searchBranches(q) });
  return and;
}

/** LIKE's wildcards typed by a person are searched for as themselves. */
const literal = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The console search's branches, each an index lookup: the id and platform customer id exactly;
 * any part of the email or of the name (any word of an individual's name, a business's legal
 * name) through the trigram indexes of migration 20261201200000_console_search, which need three
 * characters; shorter text matches the start of a name or the whole email (btree indexes of
 * 20261128300000_customer_search). The lower-case columns are generated by the database.
 */
function searchBranches(q: string): Prisma.CustomerWhereInput[] {
  const lower = q.toLowerCase();
  const part = [...lower].length >= 3;
  return [
    { id: q },
    { platformCustomerId: q },
    part ? { searchEmail: { contains: literal(lower) } } : { searchEmail: lower },
    { searchName: part ? { contains: literal(lower) } : { startsWith: literal(lower) } },
  ];
}

function where(platformId: string, f: CustomerFilter): Prisma.CustomerWhereInput {
  return {
    platformId,
    ...(f.includeDeleted ? {} : { deletedAt: null }),
    ...(f.platformCustomerId ? { platformCustomerId: f.platformCustomerId } : {}),
    ...(f.customerType ? { customerType: f.customerType } : {}),
    ...(f.region ? { region: f.region } : {}),
    ...(f.currency ? { currencies: { has: f.currency } } : {}),
    createdAt: {
      ...(f.createdAfter ? { gte: f.createdAfter } : {}),
      ...(f.createdBefore ? { lte: f.createdBefore } : {}),
    },
    updatedAt: {
      ...(f.updatedAfter ? { gte: f.updatedAfter } : {}),
      ...(f.updatedBefore ? { lte: f.updatedBefore } : {}),
    },
    AND: consoleFilters(f),
  };
}

/** The filters the ListCount triggers count: none ('active'), or only includeDeleted ('all'). */
function counterKey(f: CustomerFilter): string | undefined {
  const set = Object.entries(f).filter(([k, v]) => k !== 'includeDeleted' && v !== undefined && v !== '');
  if (set.length) return undefined;
  return f.includeDeleted ? 'all' : 'active';
}

/** Ids of the platform's customers with this UMA address, any case (by index, deleted ones too). */
async function idsByUmaAddress(platformId: string, umaAddress: string): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Customer" WHERE "platformId" = ${platformId} AND lower("umaAddress") = lower(${umaAddress})`;
  return rows.map((r) => r.id);
}

export async function list(platformId: string, f: CustomerFilter, req: ListRequest): Promise<Listed<CustomerRow>> {
  const byUma = f.umaAddress ? { id: { in: await idsByUmaAddress(platformId, f.umaAddress) } } : {};
  const base = { AND: [where(platformId, f), byUma] };
  const key = counterKey(f);
  return listRows(req, {
    rows: (after, take) => db().customer.findMany({ where: { AND: [base, after] }, orderBy: orderOf(), take }),
    count: (cap) =>
      key !== undefined
        ? countFromCounters(platformId, 'customers', key)
        : db().customer.count({ where: base, ...bounded(cap) }),
    countIsCheap: key !== undefined,
  });
}

/** The platform's active customer with this UMA address (any case), if any. */
export async function findActiveByUmaAddress(platformId: string, umaAddress: string): Promise<CustomerRow | null> {
  const rows = await queryIn<CustomerRow>(
    db(),
    Prisma.sql`SELECT * FROM "Customer" WHERE "platformId" = ${platformId} AND lower("umaAddress") = lower(${umaAddress}) AND "deletedAt" IS NULL LIMIT 1`,
  );
  return rows[0] ?? null;
}

/** Active customers (of any platform) with this UMA address; at most one by the unique index. */
export function customersByUmaAddress(umaAddress: string, tx: Tx) {
  return tx.$queryRaw<{ id: string; platformId: string; platformCustomerId: string }[]>`
    SELECT "id", "platformId", "platformCustomerId" FROM "Customer" WHERE lower("umaAddress") = lower(${umaAddress}) AND "deletedAt" IS NULL LIMIT 1`;
}
