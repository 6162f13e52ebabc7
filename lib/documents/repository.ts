import { Prisma, db, type Tx } from '../core/db';
import { listRows, orderOf, type ListRequest, bounded } from '../core/list';

// Document rows without their file: the bytes are read only when the file itself is wanted.
export type DocumentRow = Omit<Prisma.DocumentGetPayload<object>, 'content'>;
const withoutContent = { content: true } as const;

export function insert(row: Prisma.DocumentUncheckedCreateInput, tx: Tx): Promise<DocumentRow> {
  return tx.document.create({ data: row, omit: withoutContent });
}

export function findById(platformId: string, id: string, tx: Tx): Promise<DocumentRow | null> {
  return tx.document.findFirst({ where: { platformId, id }, omit: withoutContent });
}

/** Every document of a customer: its own and its beneficial owners', oldest first. */
export function ofCustomer(platformId: string, customerId: string, tx: Tx): Promise<DocumentRow[]> {
  return tx.document.findMany({
    where: { platformId, customerId },
    omit: withoutContent,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** Replaces file and metadata unless the document was submitted; returns whether it did. */
export async function replaceUnlessSubmitted(
  platformId: string,
  id: string,
  data: Prisma.DocumentUncheckedUpdateManyInput,
  tx: Tx,
): Promise<boolean> {
  const { count } = await tx.document.updateMany({ where: { platformId, id, submittedAt: null }, data });
  return count === 1;
}

export async function deleteUnlessSubmitted(platformId: string, id: string, tx: Tx): Promise<boolean> {
  const { count } = await tx.document.deleteMany({ where: { platformId, id, submittedAt: null } });
  return count === 1;
}

/** The customer's documents become evidence of a submitted verification. */
export async function markSubmitted(platformId: string, customerId: string, at: Date, tx: Tx): Promise<void> {
  await tx.document.updateMany({ where: { platformId, customerId, submittedAt: null }, data: { submittedAt: at } });
}

export async function list(platformId: string, documentHolder: string | undefined, req: ListRequest) {
  const base = { platformId, ...(documentHolder ? { documentHolder } : {}) };
  return listRows(req, {
    rows: (after, take) =>
      db().document.findMany({
        where: { AND: [base, after] },
        omit: withoutContent,
        orderBy: orderOf(),
        take,
      }),
    count: (cap) => db().document.count({ where: base, ...bounded(cap) }),
  });
}

/** A document's file, for the console's preview. */
export function findFile(platformId: string, id: string) {
  return db().document.findFirst({
    where: { platformId, id },
    select: { fileName: true, contentType: true, content: true },
  });
}
