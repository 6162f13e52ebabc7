import { db } from '@/lib/core/db';
import * as staff from '@/lib/staff/service';
import type { StaffActor } from '@/lib/staff/roles';
import { parseCsv } from './csv';

export { parseCsv };

// Shared steps of the console export tests (tests/console-export*.test.ts): a signed-in staff
// member of a role, as the console's session would resolve them, and the CSV read back as cells.
let n = 0;

/** A new staff member of `platformId` with `role`, signed in through the real sign-in. */
export async function staffActor(platformId: string, role: 'viewer' | 'operator' | 'admin'): Promise<StaffActor> {
  const password = 'a-long-enough-password';
  const email = `export-${process.pid}-${Date.now()}-${++n}@staff.example`;
  const { user } = await staff.createUser(platformId, { email, role, password }, db());
  return (await staff.actorOf((await staff.signIn(user.email, password)).sessionId))!;
}

/** The rows of a CSV answer as records by header, with the header itself. */
export async function csvRecords(res: Response): Promise<{ header: string[]; rows: Record<string, string>[] }> {
  const [header, ...rows] = parseCsv(await res.text());
  return { header, rows: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))) };
}
