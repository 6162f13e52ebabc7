import { Prisma, db, type Tx } from '../core/db';
import { listRows, orderOf, type ListRequest, bounded } from '../core/list';

export type VerificationRow = Prisma.VerificationGetPayload<object>;

/** Statuses in which a verification is still open; the database holds one per customer. */
export const OPEN_STATUSES = ['RESOLVE_ERRORS', 'PENDING_MANUAL_REVIEW'];

export function insert(row: Prisma.VerificationUncheckedCreateInput, tx: Tx): Promise<VerificationRow> {
  return tx.verification.create({ data: row });
}

export function findById(platformId: string, id: string, tx: Tx): Promise<VerificationRow | null> {
  return tx.verification.findFirst({ where: { platformId, id } });
}

export function openOf(platformId: string, customerId: string, tx: Tx): Promise<VerificationRow | null> {
  return tx.verification.findFirst({ where: { platformId, customerId, status: { in: OPEN_STATUSES } } });
}

/** Moves a verification out of `from`; null when it was no longer there (the transition lost). */
export async function transition(
  id: string,
  from: string,
  data: { status: string; errors: Prisma.InputJsonValue; updatedAt: Date },
  tx: Tx,
): Promise<VerificationRow | null> {
  const { count } = await tx.verification.updateMany({ where: { id, status: from }, data });
  return count === 1 ? tx.verification.findUnique({ where: { id } }) : null;
}

export interface VerificationFilter {
  customerId?: string;
  status?: string;
}

export async function list(platformId: string, f: VerificationFilter, req: ListRequest) {
  const base = {
    platformId,
    ...(f.customerId ? { customerId: f.customerId } : {}),
    ...(f.status ? { status: f.status } : {}),
  };
  return listRows(req, {
    rows: (after, take) => db().verification.findMany({ where: { AND: [base, after] }, orderBy: orderOf(), take }),
    count: (cap) => db().verification.count({ where: base, ...bounded(cap) }),
  });
}

export function insertKycLink(row: Prisma.KycLinkUncheckedCreateInput, tx: Tx) {
  return tx.kycLink.create({ data: row });
}
