import { Prisma, db, type Tx } from '../../core/db';
import { listRows, orderOf, type ListRequest, bounded } from '../../core/list';

export type OwnerRow = Prisma.BeneficialOwnerGetPayload<object>;

export function insert(row: Prisma.BeneficialOwnerUncheckedCreateInput, tx: Tx): Promise<OwnerRow> {
  return tx.beneficialOwner.create({ data: row });
}

export function findById(platformId: string, id: string, tx: Tx): Promise<OwnerRow | null> {
  return tx.beneficialOwner.findFirst({ where: { platformId, id } });
}

export function update(id: string, data: Prisma.BeneficialOwnerUncheckedUpdateInput, tx: Tx): Promise<OwnerRow> {
  return tx.beneficialOwner.update({ where: { id }, data });
}

/** Owners of the given businesses, oldest first (the order they were declared in). */
export function ofCustomers(platformId: string, customerIds: string[], tx: Tx): Promise<OwnerRow[]> {
  return tx.beneficialOwner.findMany({
    where: { platformId, customerId: { in: customerIds } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** Moves the business's owners that are in `from` to `to` (one conditional update). */
export async function setStatusWhere(
  platformId: string,
  customerId: string,
  from: string[],
  to: string,
  at: Date,
  tx: Tx,
): Promise<void> {
  await tx.beneficialOwner.updateMany({
    where: { platformId, customerId, kycStatus: { in: from } },
    data: { kycStatus: to, updatedAt: at },
  });
}

/** Sets one owner's status if it is still in `from`; returns whether it moved. */
export async function setStatus(id: string, from: string[], to: string, at: Date, tx: Tx): Promise<boolean> {
  const { count } = await tx.beneficialOwner.updateMany({
    where: { id, kycStatus: { in: from } },
    data: { kycStatus: to, updatedAt: at },
  });
  return count === 1;
}

export async function list(platformId: string, customerId: string, req: ListRequest) {
  const base = { platformId, customerId };
  return listRows(req, {
    rows: (after, take) =>
      db().beneficialOwner.findMany({
        where: { AND: [base, after] },
        orderBy: orderOf(),
        take,
      }),
    count: (cap) => db().beneficialOwner.count({ where: base, ...bounded(cap) }),
  });
}
