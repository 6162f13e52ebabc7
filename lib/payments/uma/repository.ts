import { type Prisma, type Tx } from '../../core/db';

export function findLookup(platformId: string, id: string, tx: Tx) {
  return tx.lookup.findFirst({ where: { platformId, id } });
}

export async function insertLookup(data: Prisma.LookupUncheckedCreateInput, tx: Tx) {
  return tx.lookup.create({ data });
}
