import 'server-only';
import { notFound } from 'next/navigation';
import { runAs } from '@/lib/core/context';
import { DomainError } from '@/lib/core/errors';
import type { StaffActor } from '@/lib/staff/roles';

// Console pages read through the domain services directly (no HTTP round trip to this server),
// as the staff actor: the platform's sandbox clock applies and the services know who reads.
export function read<T>(actor: StaffActor, fn: () => Promise<T>): Promise<T> {
  return runAs(actor, fn);
}

/** A read whose "not found" is the page's 404. */
export async function readOr404<T>(actor: StaffActor, fn: () => Promise<T>): Promise<T> {
  try {
    return await runAs(actor, fn);
  } catch (err) {
    if (err instanceof DomainError && err.code.endsWith('NOT_FOUND')) notFound();
    throw err;
  }
}

/** A read whose refusal (a bad filter or cursor) is shown on the page instead of failing it. */
export async function readOrError<T>(
  actor: StaffActor,
  fn: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await runAs(actor, fn) };
  } catch (err) {
    if (err instanceof DomainError && err.code === 'INVALID_INPUT') return { ok: false, error: err.message };
    throw err;
  }
}

/** A search parameter as one string (the first when repeated), capped. */
export function param(value: string | string[] | undefined, max = 200): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && v.length <= max ? v : undefined;
}
