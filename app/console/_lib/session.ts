import 'server-only';
import { redirect } from 'next/navigation';
import { hasRole, type StaffActor } from '@/lib/staff/roles';
import { currentStaff } from './auth';

// Session and role checks of the console, on the server: pages call requireStaff (and show a
// refusal when the role is short), server actions run commands as the staff member (./command.ts).
export async function requireStaff(): Promise<StaffActor> {
  const actor = await currentStaff();
  if (!actor) redirect('/console/sign-in');
  return actor;
}

export { hasRole };

export type ActionResult<T = undefined> =
  { ok: true; value: T } | { ok: false; code: string; error: string; fields?: { field: string; message: string }[] };
