import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, expect, test } from 'vitest';
import { bufferedDestination } from './log';

// The service's stdout lines are written in batches (lib/core/log.ts): a line must still reach the
// file within the flush interval, in order, whole, even when no further line fills the buffer.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test('a buffered line reaches its file within the flush interval, lines in order and whole', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'corridor-log-'));
  dirs.push(dir);
  const file = path.join(dir, 'out.log');
  const fd = openSync(file, 'w');
  const stream = bufferedDestination(fd);
  const logger = pino({ base: null, timestamp: false }, stream);
  logger.info({ n: 1 }, 'first');
  logger.info({ n: 2 }, 'second');
  // Two short lines stay below the batch size: only the timer writes them.
  const deadline = Date.now() + 5_000;
  let text = '';
  while (Date.now() < deadline) {
    text = readFileSync(file, 'utf8');
    if (text.split('\n').length > 2) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const lines = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => [l.msg, l.n])).toEqual([
    ['first', 1],
    ['second', 2],
  ]);
  // Many lines at once (more than a batch): every one arrives, none split or merged.
  for (let i = 0; i < 500; i++) logger.info({ i }, 'bulk');
  // flush(cb) waits for the write already in flight: flushSync would write the rest beside it and
  // could land ahead of it (the CI flake of stop 32).
  await new Promise<void>((resolve, reject) => stream.flush((err) => (err ? reject(err) : resolve())));
  const all = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(all.slice(2).map((l) => l.i)).toEqual(Array.from({ length: 500 }, (_, i) => i));
  // Ending the stream closes its descriptor.
  stream.end();
  await new Promise((r) => stream.once('close', r));
});
