import { Writable } from 'node:stream';
import pino, { type Logger, type LevelWithSilent } from 'pino';
import pretty from 'pino-pretty';

// The service's log: one JSON line per event on stdout (an operator's collector reads it), pretty
// text only when a person watches a terminal. Lines carry facts chosen field by field — never
// request bodies, query strings, secrets, codes or card numbers: callers pass ids and outcomes.
const LEVELS: readonly LevelWithSilent[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

function levelFrom(value: string | undefined): { level: LevelWithSilent; refused?: string } {
  if (!value) return { level: 'info' };
  const v = value.trim().toLowerCase() as LevelWithSilent;
  return LEVELS.includes(v) ? { level: v } : { level: 'info', refused: value };
}

// Tests swap the destination to read what was written (lib/core/log.test.ts, tests/request-log.test.ts,
// tests/log-lines.test.ts).
let sink: Writable | undefined;
let current: Logger | undefined;

function build(): Logger {
  const { level, refused } = levelFrom(process.env.CORRIDOR_LOG_LEVEL);
  const destination = sink ?? destinationFor(process.stdout, 1);
  const logger = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  if (refused) logger.warn(`CORRIDOR_LOG_LEVEL=${refused} is not one of ${LEVELS.join(', ')}; logging at info`);
  return logger;
}

/** Where lines on `fd` go: pretty text when `out` is a terminal a person reads, else JSON lines. */
export function destinationFor(out: { isTTY?: boolean }, fd: number) {
  return out.isTTY ? pretty({ colorize: true, sync: true, destination: fd }) : bufferedDestination(fd);
}

// Lines are gathered and written a few KiB at a time rather than one write per line: the request
// line and the job line of every payment each cost an fs.write (with its thread-pool hop), about
// 1.4 ms of server CPU per payment flow (CPU profile of `npm run bench`, issue 24 point 7). A line
// waits at most FLUSH_MS; pino flushes what is left synchronously when the process exits.
const BUFFER_BYTES = 4096;
const FLUSH_MS = 250;
/** The destination of lines on file descriptor `fd` (stdout: 1), written in batches. */
export function bufferedDestination(fd: number) {
  const stream = pino.destination({ dest: fd, sync: false, minLength: BUFFER_BYTES });
  setInterval(() => {
    try {
      stream.flush();
    } catch {
      // destroyed (stdout closed): nothing left to write to
    }
  }, FLUSH_MS).unref();
  return stream;
}

/** The process's logger (built on first use, after the environment is read). */
export function log(): Logger {
  return (current ??= build());
}

/** Sends every later line to `stream` (tests), or back to stdout when undefined. */
export function setLogDestination(stream: Writable | undefined): void {
  sink = stream;
  current = undefined;
}

/** An error's message for a log line: its text, never the object (which may hold values). */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
