import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The project's own ESLint configuration refuses an implicit transaction client (issue 24,
// point 4): a `= db()` default, an optional Tx/Db parameter, and db() inside a transaction's
// callback; the explicit forms pass. Each sample is linted as a file under lib/ (by the
// restricted-syntax rule alone: import/no-cycle cannot follow a file that does not exist).
const root = path.resolve(__dirname, '..');
const eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-syntax' });
const HEAD = `import { db, transaction, type Db, type Tx } from '../core/db';\n`;

async function refusals(body: string): Promise<string[]> {
  const [result] = await eslint.lintText(HEAD + body, { filePath: path.join(root, 'lib/lint-sample/sample.ts') });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const refused = [
  [
    'a `= db()` default',
    `export async function f(id: string, tx: Tx = db()) { return tx.quote.findUnique({ where: { id } }); }`,
  ],
  [
    'an untyped `= db()` default',
    `export const f = (id: string, client = db()) => client.quote.findUnique({ where: { id } });`,
  ],
  [
    'a default on a Tx parameter',
    `export async function f(id: string, client: Db, tx: Tx = client) { return tx.quote.findUnique({ where: { id } }); }`,
  ],
  [
    'an optional Tx parameter',
    `export async function f(id: string, tx?: Tx) { return (tx ?? db()).quote.findUnique({ where: { id } }); }`,
  ],
  [
    'an optional Db parameter',
    `export async function f(id: string, client?: Db) { return client?.quote.findUnique({ where: { id } }); }`,
  ],
  [
    'a Tx parameter that may be undefined',
    `export async function f(id: string, tx: Tx | undefined) { return tx?.quote.findUnique({ where: { id } }); }`,
  ],
  [
    'an optional tx in an options object',
    `export async function f(id: string, opts: { tx?: Tx; lock?: boolean }) { return opts.tx?.quote.findUnique({ where: { id } }); }`,
  ],
  [
    'db() inside transaction()',
    `export const f = (id: string) => transaction(async (tx) => { await tx.quote.findUnique({ where: { id } }); return db().quote.count(); });`,
  ],
  [
    'db() nested deeper inside transaction()',
    `export const f = (ids: string[]) => transaction(async () => Promise.all(ids.map((id) => db().quote.findUnique({ where: { id } }))));`,
  ],
  [
    'db() inside the Prisma client $transaction()',
    `export const f = (id: string) => db().$transaction(async () => db().quote.findUnique({ where: { id } }));`,
  ],
] as const;

describe('the transaction lint rules', () => {
  it.each(refused)('refuses %s', async (_what, code) => {
    expect(await refusals(code)).toHaveLength(1);
  });

  it('accepts the explicit forms', async () => {
    const good = `
      export async function find(id: string, tx: Tx) { return tx.quote.findUnique({ where: { id } }); }
      export async function pick(id: string, opts: { tx: Tx; lock?: boolean }) { return find(id, opts.tx); }
      export const read = (id: string) => find(id, db());
      export const inside = (id: string) => transaction(async (tx) => find(id, tx));
      export const client = (c: Db) => c.quote.count();
    `;
    expect(await refusals(good)).toEqual([]);
  });
});
