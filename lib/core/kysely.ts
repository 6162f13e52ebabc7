import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { DB } from '../generated/kysely';

// Hot-path statements are built with Kysely against `DB`, the type generated from prisma/schema
// (scripts/gen-kysely.mjs, run by `npm run gen`): a column renamed in the schema fails `tsc` where
// a statement still names it (lib/core/sql.typecheck.test.ts proves it). Kysely only builds and
// compiles: it has no driver here (DummyDriver); lib/core/db.ts runs the compiled text and
// parameters on the client's pool or in the client's transaction and parses the values returned.
export const kysely = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
