import type { Actor, StaffRole } from '../core/context';
import { STAFF_ROLES, hasRole, missingRole } from '../core/command';

// The console's roles, each including the ones before it: a viewer reads every page, an
// operator also acts on customers and payments (review decisions, webhook replays, the sandbox
// clock), an admin also configures (API tokens, platform configuration, staff accounts).
export type { StaffRole };
export type StaffActor = Extract<Actor, { kind: 'staff' }>;
export const ROLES = STAFF_ROLES;
export { hasRole };

export function isRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (ROLES as string[]).includes(value);
}

export function requireRole(actor: StaffActor, needed: StaffRole): void {
  if (!hasRole(actor.role, needed)) throw missingRole(needed, actor.role);
}
