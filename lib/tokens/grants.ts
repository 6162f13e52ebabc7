import { currentActor, type Actor, type Permission } from '../core/context';
import { DomainError } from '../core/errors';

// No grant beyond one's own permissions. An operation that creates, raises, hands over or removes
// a credential (an API token, an agent and its device code) needs the caller to hold every
// permission that credential exercises: otherwise a MANAGE-only token could mint itself a
// money-moving agent, or take away a credential stronger than itself.
//
// Who holds what comes from the actor context, which every surface sets (the API wrapper, console
// actions, the worker). Only API tokens are limited here: a staff user's console role is checked
// by the console (lib/staff/roles.ts) and the system acts for the service itself. An agent holds
// no platform permission; no actor at all holds none (fail closed).
export const ALL_PERMISSIONS: readonly Permission[] = ['VIEW', 'TRANSACT', 'MANAGE'];

export function heldBy(actor: Actor | undefined): readonly Permission[] {
  if (!actor) return [];
  if (actor.kind === 'platform') return actor.permissions;
  if (actor.kind === 'staff' || actor.kind === 'system') return ALL_PERMISSIONS;
  return [];
}

/** The permissions of `needed` the acting caller lacks (none: it may go ahead). */
export function lacking(needed: Iterable<Permission>, actor = currentActor()): Permission[] {
  const held = heldBy(actor);
  return ALL_PERMISSIONS.filter((p) => [...needed].includes(p) && !held.includes(p));
}

/**
 * Refuses (403 FORBIDDEN) unless the acting caller holds every permission of `needed`. `what`
 * completes "This API token cannot …", e.g. `delete a token that holds TRANSACT`.
 */
export function requireHeld(needed: Iterable<Permission>, what: string, actor = currentActor()): void {
  const missing = lacking(needed, actor);
  if (!missing.length) return;
  throw new DomainError(
    'FORBIDDEN',
    `This API token cannot ${what}: that needs ${missing.join(', ')}, which it lacks (a token grants only what it holds itself)`,
    {
      reason: 'PERMISSION_NOT_HELD',
      requiredPermissions: ALL_PERMISSIONS.filter((p) => [...needed].includes(p)),
      missingPermissions: missing,
      tokenPermissions: [...heldBy(actor)],
    },
  );
}
