// Checks the built client bundles (.next/static: everything a browser can download) for secrets
// and server-only code: the canary values the build ran with must not appear, nor the names of
// server secrets, nor code that only the server may hold (the database client, the master key).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const CANARIES = {
  CORRIDOR_SECRET_KEY: 'ca7a'.repeat(16),
  CORRIDOR_CLIENT_SECRET: 'canary-client-secret-5d1c0e-0123456789abcdef',
  CORRIDOR_STAFF_PASSWORD: 'canary-staff-password-9b2f',
  DATABASE_URL: 'postgresql://canary:canary-db-password-71@127.0.0.1:1/canary',
};

const FORBIDDEN = [
  ...Object.values(CANARIES),
  'canary-db-password-71',
  'CORRIDOR_SECRET_KEY',
  'CORRIDOR_CLIENT_SECRET',
  'CORRIDOR_STAFF_PASSWORD',
  'DATABASE_URL',
  'secretHash',
  'passwordHash',
  'PrismaClient',
  'loadMasterKey',
  'staff-sessions',
  'wallet-pages',
  'BEGIN PRIVATE KEY',
];

function files(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else out.push(p);
  }
  return out;
}

/** Returns the problems found (empty when the bundles are clean). */
export function scanStatic(root) {
  const dir = path.join(root, '.next', 'static');
  const problems = [];
  const all = files(dir);
  if (!all.some((f) => f.endsWith('.js'))) problems.push(`no JavaScript found under ${dir}`);
  for (const file of all) {
    const text = readFileSync(file, 'latin1');
    for (const needle of FORBIDDEN)
      if (text.includes(needle)) problems.push(`${path.relative(root, file)} contains "${needle}"`);
  }
  return { problems, scanned: all.length };
}
