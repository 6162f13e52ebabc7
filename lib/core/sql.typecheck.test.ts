import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { kyselyTypes } from '@/scripts/gen-kysely.mjs';
import { prismaDataModel } from '@/scripts/schema-drift.mjs';

// Hot-path statements are typed by the schema: rename a column in prisma/schema and `tsc` must
// fail where the payment statements still write the old name. The schema is renamed in memory
// (the DMMF), the DB type generated from it as `npm run gen` would, and the real repositories are
// type-checked against it; nothing on disk changes. With the schema as it is, the same check passes.
const root = path.resolve(__dirname, '..', '..');
const GENERATED = path.join(root, 'lib', 'generated', 'kysely.ts');
const HOT_PATHS = [
  'lib/ledger/repository.ts',
  'lib/payments/quotes/repository.ts',
  'lib/accounts/service.ts',
  'lib/jobs/repository.ts',
  'lib/customers/repository.ts',
].map((f) => path.join(root, f));

type Field = { name: string; kind: string };
type DataModel = { models: { name: string; fields: Field[] }[] };

function renamed(model: string, from: string, to: string): DataModel {
  const dm = prismaDataModel() as DataModel;
  const field = dm.models.find((m) => m.name === model)?.fields.find((f) => f.name === from);
  if (!field) throw new Error(`${model}.${from} is not in the schema`);
  field.name = to;
  return dm;
}

let previous: ts.Program | undefined;

/** tsc's errors for the hot-path files, with lib/generated/kysely.ts replaced by `generated`. */
function typeErrors(generated: string): string[] {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const host = ts.createCompilerHost({ ...options, incremental: false, noEmit: true });
  const read = host.readFile.bind(host);
  host.readFile = (file) => (path.resolve(file) === GENERATED ? generated : read(file));
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, onError, create) =>
    path.resolve(file) === GENERATED
      ? ts.createSourceFile(file, generated, lang)
      : getSource(file, lang, onError, create);
  // Each check reuses the previous program's unchanged files (the Prisma client, node_modules).
  const program = ts.createProgram(HOT_PATHS, { ...options, incremental: false, noEmit: true }, host, previous);
  previous = program;
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && HOT_PATHS.includes(path.resolve(d.file.fileName)))
    .map((d) => `${path.relative(root, d.file!.fileName)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('typed hot-path SQL', () => {
  it('type-checks against the schema as it is', () => {
    expect(typeErrors(kyselyTypes())).toEqual([]);
  }, 120_000);

  it('fails tsc where a statement writes a column the schema renamed', () => {
    const errors = typeErrors(kyselyTypes(renamed('LedgerEntry', 'amount', 'amountMinor')));
    expect(errors.some((e) => e.startsWith('lib/ledger/repository.ts') && /amount/.test(e))).toBe(true);
    const quoteErrors = typeErrors(kyselyTypes(renamed('Quote', 'status', 'state')));
    expect(quoteErrors.some((e) => e.startsWith('lib/payments/quotes/repository.ts') && /status/.test(e))).toBe(true);
    // The worker's claim and the customer read: prepared statements (lib/core/prepared.ts), typed the same way.
    const jobErrors = typeErrors(kyselyTypes(renamed('Job', 'leaseUntil', 'leasedUntil')));
    expect(jobErrors.some((e) => e.startsWith('lib/jobs/repository.ts') && /leaseUntil/.test(e))).toBe(true);
    const customerErrors = typeErrors(kyselyTypes(renamed('Customer', 'platformId', 'tenantId')));
    expect(customerErrors.some((e) => e.startsWith('lib/customers/repository.ts') && /platformId/.test(e))).toBe(true);
    // The join of the quote's execution read names the transaction's key.
    const joinErrors = typeErrors(kyselyTypes(renamed('Quote', 'transactionId', 'paymentId')));
    expect(joinErrors.some((e) => e.startsWith('lib/payments/quotes/repository.ts') && /transactionId/.test(e))).toBe(
      true,
    );
  }, 240_000);

  it('lib/generated/kysely.ts is what `npm run gen` makes of the schema now (deterministic, current)', () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(kyselyTypes());
  });
});
