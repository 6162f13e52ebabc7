import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import pino from 'pino';
import { afterAll, afterEach, expect, it } from 'vitest';
import { destinationFor, log, setLogDestination } from './log';

// The log's own rules (issue 28 point 1): CORRIDOR_LOG_LEVEL chooses the level and a value that is
// not a level is said out loud rather than silently ignored; JSON lines unless a person watches a
// terminal. What the lines of requests, jobs and webhook attempts hold: tests/request-log.test.ts
// and tests/log-lines.test.ts.
const previous = process.env.CORRIDOR_LOG_LEVEL;
afterEach(() => {
  if (previous === undefined) delete process.env.CORRIDOR_LOG_LEVEL;
  else process.env.CORRIDOR_LOG_LEVEL = previous;
  setLogDestination(undefined);
});

/** Lines the process's logger writes while `fn` runs with CORRIDOR_LOG_LEVEL=`level`. */
function linesAt(level: string | undefined, fn: () => void): Record<string, unknown>[] {
  if (level === undefined) delete process.env.CORRIDOR_LOG_LEVEL;
  else process.env.CORRIDOR_LOG_LEVEL = level;
  let raw = '';
  setLogDestination(
    new Writable({
      write(chunk, _enc, done) {
        raw += chunk.toString();
        done();
      },
    }),
  );
  fn();
  return raw
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

const everyLevel = () => {
  log().debug({ n: 1 }, 'debug line');
  log().info({ n: 2 }, 'info line');
  log().warn({ n: 3 }, 'warn line');
  log().error({ n: 4 }, 'error line');
};

it('logs info and above by default, as JSON lines with an ISO time, the level by name and the pid', () => {
  const lines = linesAt(undefined, everyLevel);
  expect(lines.map((l) => l.msg)).toEqual(['info line', 'warn line', 'error line']);
  expect(lines[0]).toMatchObject({ level: 'info', pid: process.pid, n: 2 });
  expect(new Date(lines[0].time as string).toISOString()).toBe(lines[0].time);
});

it('CORRIDOR_LOG_LEVEL=warn writes no info line; debug writes debug lines too; the value is read leniently', () => {
  expect(linesAt('warn', everyLevel).map((l) => l.level)).toEqual(['warn', 'error']);
  expect(linesAt(' DEBUG ', everyLevel).map((l) => l.level)).toEqual(['debug', 'info', 'warn', 'error']);
  expect(linesAt('silent', everyLevel)).toEqual([]);
});

it('an invalid CORRIDOR_LOG_LEVEL is refused with a warning naming it, and logging goes on at info', () => {
  const lines = linesAt('loud', everyLevel);
  expect(lines[0]).toMatchObject({ level: 'warn' });
  expect(lines[0].msg).toMatch(/^CORRIDOR_LOG_LEVEL=loud is not one of trace, debug, info, warn, error, fatal, silent/);
  expect(lines.slice(1).map((l) => l.msg)).toEqual(['info line', 'warn line', 'error line']);
});

const dir = mkdtempSync(path.join(tmpdir(), 'corridor-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a logger writing through destinationFor(`out`) puts on a file descriptor (colours removed). */
async function writtenFor(out: { isTTY?: boolean }, name: string): Promise<string> {
  const file = path.join(dir, name);
  const destination = destinationFor(out, openSync(file, 'w'));
  const logger = pino({ formatters: { level: (label) => ({ level: label }) } }, destination);
  logger.info({ customerId: 'Customer:1' }, 'hello operator');
  // Ending the stream writes what it holds and closes the file.
  await new Promise((resolve) => {
    destination.once('close', resolve);
    destination.end();
  });
  return stripVTControlCharacters(readFileSync(file, 'utf8'));
}

it('writes pretty text only to a terminal, JSON lines to anything else', async () => {
  const json = await writtenFor({ isTTY: false }, 'pipe.log');
  expect(JSON.parse(json.trim())).toMatchObject({ level: 'info', msg: 'hello operator', customerId: 'Customer:1' });
  const pretty = await writtenFor({ isTTY: true }, 'tty.log');
  expect(() => JSON.parse(pretty.trim())).toThrow();
  expect(pretty).toMatch(/^\[[\d:.]+\] INFO \(\d+\): hello operator\n\s+customerId: "Customer:1"\n$/);
});
