import pg from 'pg';
import { transaction } from '@/lib/core/db';

/** SQL texts (and values) sent to the database while `fn` runs. */
export async function statements<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; sent: { text: string; values: unknown[] }[] }> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const sent: { text: string; values: unknown[] }[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string; values?: unknown[] };
    if (typeof q === 'string') sent.push({ text: q, values: (args[1] as unknown[]) ?? [] });
    else if (q?.text) sent.push({ text: q.text, values: q.values ?? (args[1] as unknown[]) ?? [] });
    return original.apply(this, args);
  };
  try {
    return { result: await fn(), sent };
  } finally {
    proto.query = original;
  }
}

/**
 * The plan of a statement with sequential scans priced out, and either bitmap scans or (with
 * `bitmap`) plain index scans: at test sizes a sequential scan, or any index giving the order, is
 * cheapest, so only this shows which index can serve the statement's filter.
 */
export async function planOf(statement: { text: string; values: unknown[] }, opts: { bitmap?: boolean } = {}) {
  const plan = await transaction(async (tx) => {
    await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
    await tx.$executeRawUnsafe(`SET LOCAL ${opts.bitmap ? 'enable_indexscan' : 'enable_bitmapscan'} = off`);
    return tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${statement.text}`, ...statement.values);
  });
  return plan.map((r) => r['QUERY PLAN']).join('\n');
}
