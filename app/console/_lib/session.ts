import { log } from '@/lib/core/log';
import 'server-only';
import { redirect } from 'next/navigation';
import { DomainError } from '@/lib/core/errors';
import { hasRole, requireRole, type StaffActor, type StaffRole } from '@/lib/staff/roles';
import { currentStaff } from './auth';

// Session and role checks of the console, on the server: pages call requireStaff (and show a
// refusal when the role is short), server actions and route handlers go through actionAs.
export async function requireStaff(): Promise<StaffActor> {
  const actor = await currentStaff();
  if (!actor) redirect('/console/sign-in');
  return actor;
}

export { hasRole };

export type ActionResult<T = undefined> =
  { ok: true; value: T } | { ok: false; code: string; error: string; fields?: { field: string; message: string }[] };

/** Runs a mutation as the signed-in staff member with at least `role`; errors become results. */
export async function actionAs<T>(role: StaffRole, fn: (actor: StaffActor) => Promise<T>): Promise<ActionResult<T>> {
  const actor = await currentStaff();
  if (!actor) return { ok: false, code: 'UNAUTHORIZED', error: 'Your session has ended; sign in again' };
  try {
    requireRole(actor, role);
    return { ok: true, value: await fn(actor) };
  } catch (err) {
    if (err instanceof DomainError) {
      const fields = (err.details?.errors as { field: string; message: string }[] | undefined)?.map((e) => ({
        field: e.field,
        message: e.message,
      }));
      return { ok: false, code: err.code, error: err.message, ...(fields ? { fields } : {}) };
    }
    log().error({ err }, 'console action failed with an unexpected error');
    return { ok: false, code: 'INTERNAL_ERROR', error: 'Internal error; nothing was changed' };
  }
}
