import { defineConfig } from 'prisma/config';

// The CLI is only used for `prisma generate`; migrations are applied by scripts/migrate.mjs.
// A placeholder URL keeps generate working when DATABASE_URL is unset (embedded default).
export default defineConfig({
  schema: 'prisma/schema',
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/unused' },
});
