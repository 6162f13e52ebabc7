// Drops the soak's scratch PostgreSQL database. Imported by server.mjs, and run as a script by the
// soak's last-resort exit hook (`node drop-database.mjs <server url> <name>`), which cannot await.
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export async function dropDatabase(serverUrl, name) {
  if (!/^corridor_soak_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop ${name}: not a soak database`);
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  admin.on('error', () => {});
  await admin.connect();
  try {
    // FORCE: a server process that outlived its group's SIGKILL must not keep the database.
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end().catch(() => {});
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  dropDatabase(process.argv[2], process.argv[3]).catch((err) => {
    console.error(`[soak] dropping ${process.argv[3]} failed: ${err.message}`);
    process.exit(1);
  });
}
