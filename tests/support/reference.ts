import { existsSync } from 'node:fs';
import path from 'node:path';

// Where the shared reference material lives: CORRIDOR_REFERENCE_DIR, else ../shared/reference
// beside the checkout, else the workplace's /work/shared/reference (a fresh clone in /tmp has no
// sibling). Tests that need it fail loudly when CI is set and it cannot be found.
const candidates = [
  process.env.CORRIDOR_REFERENCE_DIR,
  path.resolve(__dirname, '..', '..', '..', 'shared', 'reference'),
  '/work/shared/reference',
].filter((p): p is string => !!p);

export function referenceFile(name: string): string | null {
  for (const dir of candidates) {
    const file = path.join(dir, name);
    if (existsSync(file)) return file;
  }
  return null;
}

export function requireReferenceFile(name: string): string {
  const file = referenceFile(name);
  if (!file)
    throw new Error(
      `reference file ${name} not found (looked in ${candidates.join(', ')}); set CORRIDOR_REFERENCE_DIR`,
    );
  return file;
}
