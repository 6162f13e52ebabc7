import type { Actor, StaffRole } from '../core/context';
import { DomainError } from '../core/errors';

// The console's roles, each including the ones before it: a viewer reads every page, an
// operator also acts on customers and payments (review decisions, webhook replays, the sandbox
// clock), an admin also configures (API tokens, platform configuration, staff accounts).
export type { StaffRole };
export type StaffActor = Extract<Actor, { kind: 'staff' }>;
export const ROLES: StaffRole[] = ['viewer', 'operator', 'admin'];

export function isRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (ROLES as string[]).includes(value);
}

export function hasRole(actual: StaffRole, needed: StaffRole): boolean {
  return ROLES.indexOf(actual) >= ROLES.indexOf(needed);
}

export function requireRole(actor: StaffActor, needed: StaffRole): void {
  if (!hasRole(actor.role, needed))
    throw new DomainError('FORBIDDEN', `This needs the ${needed} role; you are signed in as ${actor.role}`, {
      requiredRole: needed,
      role: actor.role,
    });
}
