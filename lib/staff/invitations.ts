import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { now } from '../core/clock';
import { tag } from '../core/crypto/vault';
import { db, transaction } from '../core/db';
import { DomainError, fieldError, notFound } from '../core/errors';
import { newId } from '../core/ids';
import { record } from './audit';
import { isRole, requireRole, type StaffActor } from './roles';
import { createUser, normalizeEmail } from './service';

// Staff invitations by one-time link: an admin names the email and role and gets a link to hand
// over (/console/invite/<token>); the new member opens it and sets their own password, so no
// password is ever shown on screen or chosen by someone else. The token is 32 random bytes; only
// its keyed hash is stored, so the database alone cannot accept an invitation. A link is good
// once (accepting marks it in the same transaction that creates the account), until it expires
// after INVITATION_HOURS, and until an admin revokes it.
export const INVITATION_HOURS = 72;
const PURPOSE = 'staff-invitation';
const hashOf = (token: string) => tag(token, PURPOSE);

export interface Invitation {
  id: string;
  email: string;
  role: string;
  createdAt: Date;
  expiresAt: Date;
}

const present = (r: Invitation): Invitation => ({
  id: r.id,
  email: r.email,
  role: r.role,
  createdAt: r.createdAt,
  expiresAt: r.expiresAt,
});

/** Invites `email` as `role` (admins only, audited); the token is returned once, never stored. */
export async function invite(actor: StaffActor, input: { email: string; role: string }) {
  requireRole(actor, 'admin');
  const email = normalizeEmail(input.email);
  if (!z.email().max(254).safeParse(email).success) throw fieldError('email', 'email must be an email address');
  if (!isRole(input.role)) throw fieldError('role', 'role must be viewer, operator or admin');
  if (await db().staffUser.findUnique({ where: { email } }))
    throw new DomainError('CONFLICT', `A staff user with the email ${email} exists`);
  const token = randomBytes(32).toString('base64url');
  const at = now();
  return transaction(async (tx) => {
    const row = await tx.staffInvitation.create({
      data: {
        id: newId('StaffInvitation'),
        platformId: actor.platformId,
        email,
        role: input.role,
        tokenHash: hashOf(token),
        invitedBy: actor.staffUserId,
        createdAt: at,
        expiresAt: new Date(at.getTime() + INVITATION_HOURS * 3600_000),
      },
    });
    await record(actor, 'staff.invite', row.id, { email, role: input.role }, tx);
    return { invitation: present(row), token };
  });
}

/** Invitations neither accepted, revoked nor expired, newest first. */
export async function listPending(platformId: string): Promise<Invitation[]> {
  const rows = await db().staffInvitation.findMany({
    where: { platformId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now() } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 100,
  });
  return rows.map(present);
}

export async function revoke(actor: StaffActor, invitationId: string): Promise<void> {
  requireRole(actor, 'admin');
  await transaction(async (tx) => {
    const { count } = await tx.staffInvitation.updateMany({
      where: { id: invitationId, platformId: actor.platformId, acceptedAt: null, revokedAt: null },
      data: { revokedAt: now() },
    });
    if (count !== 1) throw notFound('REFERENCE_NOT_FOUND', `Pending invitation ${invitationId}`);
    await record(actor, 'staff.invite.revoke', invitationId, {}, tx);
  });
}

const unusable = () =>
  new DomainError('UNAUTHORIZED', 'This invitation link is not valid: it was used, revoked or has expired');

/** The pending invitation of a link (the page shows whom it is for), or UNAUTHORIZED. */
export async function findByToken(token: string): Promise<Invitation> {
  const row =
    token.length > 100 ? null : await db().staffInvitation.findUnique({ where: { tokenHash: hashOf(token) } });
  if (!row || row.acceptedAt || row.revokedAt || row.expiresAt <= now()) throw unusable();
  return present(row);
}

/**
 * Accepts an invitation: the account is created with the member's own password (the usual
 * strength rules) and the link is spent, in one transaction; a second use is refused.
 */
export async function accept(token: string, password: string) {
  const invitation = await findByToken(token);
  return transaction(async (tx) => {
    const at = now();
    const { count } = await tx.staffInvitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: at } },
      data: { acceptedAt: at },
    });
    if (count !== 1) throw unusable();
    const row = await tx.staffInvitation.findUniqueOrThrow({ where: { id: invitation.id } });
    const { user } = await createUser(row.platformId, { email: row.email, role: row.role, password }, tx);
    await tx.staffInvitation.update({ where: { id: row.id }, data: { staffUserId: user.id } });
    // The new member is the actor of their own acceptance (the audit entry reads only who and where).
    const actor = {
      kind: 'staff',
      platformId: row.platformId,
      staffUserId: user.id,
      email: user.email,
      role: user.role,
    };
    await record(actor as StaffActor, 'staff.invite.accept', user.id, { invitationId: row.id, role: row.role }, tx);
    return user;
  });
}
