import { Prisma, type Tx } from '../core/db';

export type InvitationRow = Prisma.InvitationGetPayload<object>;

export function insert(row: Prisma.InvitationUncheckedCreateInput, tx: Tx): Promise<InvitationRow> {
  return tx.invitation.create({ data: row });
}

export function findByCode(code: string, tx: Tx): Promise<InvitationRow | null> {
  return tx.invitation.findUnique({ where: { code } });
}

/** Rows a transition may move: still PENDING and not expired at `at`. */
const open = (at: Date) => ({ status: 'PENDING', OR: [{ expiresAt: null }, { expiresAt: { gt: at } }] });

/** PENDING -> CLAIMED, as one conditional update: of two concurrent claims exactly one matches. */
export async function claim(
  code: string,
  invitee: { inviteeUma: string; inviteePlatformId: string; inviteeCustomerId: string },
  at: Date,
  tx: Tx,
): Promise<boolean> {
  const { count } = await tx.invitation.updateMany({
    where: { code, ...open(at) },
    data: { ...invitee, status: 'CLAIMED', claimedAt: at, updatedAt: at },
  });
  return count === 1;
}

/** PENDING -> CANCELLED, only by the platform that created the invitation. */
export async function cancel(code: string, platformId: string, at: Date, tx: Tx): Promise<boolean> {
  const { count } = await tx.invitation.updateMany({
    where: { code, platformId, ...open(at) },
    data: { status: 'CANCELLED', cancelledAt: at, updatedAt: at },
  });
  return count === 1;
}
