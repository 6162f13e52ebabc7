// The doc test: every shell block of README.md and docs/**/*.md runs against a fresh server started
// the way the guides say (`npm start` on an empty data directory, with known bootstrap credentials
// and private webhook addresses allowed for local development). Each file runs in one bash
// (`set -euo pipefail`, blocks in order) from the project root with CLIENT_ID, CLIENT_SECRET and
// API set as README tells the reader to; a non-zero exit fails the test, naming the file and the
// block. README's first payment also runs a second time (it must be safe to rerun) and once with a
// wrong secret (it must stop loudly at the first step, not carry on). Blocks marked `no-run` are
// counted and named. `node e2e/docs.e2e.mjs [file...]` runs only the files named.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { guides, root, scriptOf } from './doc-blocks.mjs';

const FILE_TIMEOUT_MS = 240_000;
const step = (s) => console.log(`[docs] ${s}`);

async function freePort() {
  const s = net.createServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/** Runs a command in its own process group; resolves with its exit code and output. */
function runGroup(cmd, args, { env, timeoutMs, cwd = root }) {
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const kill = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  return {
    child,
    output: () => out,
    kill,
    done: new Promise((resolve) => {
      const timer = timeoutMs && setTimeout(() => kill('SIGKILL'), timeoutMs);
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        // Whatever a block left running in the background (a webhook receiver) goes too.
        kill('SIGKILL');
        resolve({ code, signal, output: out });
      });
    }),
  };
}

async function startServer(dataDir, clientId, clientSecret) {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    CORRIDOR_DATA_DIR: dataDir,
    DATABASE_URL: '',
    CORRIDOR_CLIENT_ID: clientId,
    CORRIDOR_CLIENT_SECRET: clientSecret,
    CORRIDOR_WEBHOOK_ALLOW_PRIVATE: '1',
    CORRIDOR_MODE: 'sandbox',
  };
  const server = runGroup('npm', ['start', '--silent'], { env });
  const until = Date.now() + 600_000;
  while (!/OpenAPI:\s+http/.test(server.output())) {
    if (server.child.exitCode !== null || Date.now() > until) {
      server.kill('SIGKILL');
      throw new Error(`npm start did not come up:\n${server.output()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { port, server };
}

async function stopServer(server) {
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 20_000);
  await server.done;
  clearTimeout(timer);
}

/** Runs one guide's blocks in one bash; returns {ok, failedBlock, output, seconds}. */
async function runGuide(guide, env, work) {
  const script = path.join(work, `${guide.file.replace(/[^a-z0-9]+/gi, '_')}.sh`);
  const progress = `${script}.progress`;
  writeFileSync(script, scriptOf(guide.run));
  writeFileSync(progress, '0\n');
  const started = Date.now();
  const result = await runGroup('bash', ['-euo', 'pipefail', script], {
    env: { ...env, DOC_PROGRESS: progress },
    timeoutMs: FILE_TIMEOUT_MS,
  }).done;
  const reached = readFileSync(progress, 'utf8').trim();
  const ok = result.code === 0 && reached === 'done';
  const failedBlock = ok ? undefined : guide.run[Number(reached) - 1];
  return { ok, failedBlock, result, reached, seconds: (Date.now() - started) / 1000 };
}

function describeFailure(guide, r) {
  const where = r.failedBlock
    ? `block ${guide.run.indexOf(r.failedBlock) + 1} of ${guide.run.length} (line ${r.failedBlock.line})`
    : `after its last block (progress ${r.reached})`;
  const how = r.result.signal
    ? `killed by ${r.result.signal} (timeout ${FILE_TIMEOUT_MS / 1000} s?)`
    : `exit ${r.result.code}`;
  const tail = r.result.output.trimEnd().split('\n').slice(-40).join('\n');
  return `${guide.file}: ${where} failed: ${how}\n--- last output ---\n${tail}\n---`;
}

/**
 * README's walk-through is safe to rerun, and stops loudly on a failure instead of carrying on:
 * with a wrong secret, the whole file stops at its first call, and the first payment (from the
 * block that loads the helpers) stops at its first step with the API's 401 — never reaching a
 * COMPLETED payment.
 */
async function rerunReadme(readme, env, work, clientSecret) {
  const failures = [];
  const again = await runGuide(readme, env, work);
  step(`README.md again (safe to rerun): ${again.ok ? 'passed' : 'FAILED'}`);
  if (!again.ok) failures.push(`second run: ${describeFailure(readme, again)}`);
  const wrongEnv = { ...env, CLIENT_SECRET: `${clientSecret}x` };
  const payment = { ...readme, run: readme.run.slice(readme.run.findIndex((b) => b.text.includes('examples/api.sh'))) };
  for (const [label, guide, expected] of [
    ['README.md', readme, /\b401\b/],
    ['its first payment', payment, /answered 401/],
  ]) {
    const wrong = await runGuide(guide, wrongEnv, work);
    const out = wrong.result.output;
    const loud = !wrong.ok && wrong.reached === '1' && expected.test(out) && !/COMPLETED/.test(out);
    step(`${label} with a wrong secret stops in its first block with the 401: ${loud ? 'yes' : 'NO'}`);
    if (!loud) failures.push(`${label} with a wrong secret did not stop loudly (reached ${wrong.reached}):\n${out}`);
  }
  return failures;
}

const only = process.argv.slice(2);
const all = guides();
const selected = only.length ? all.filter((g) => only.includes(g.file)) : all;
if (only.length && selected.length !== only.length) throw new Error(`no such guide among: ${only.join(', ')}`);

const notRun = all.flatMap((g) => g.notRun.map((b) => `${g.file}:${b.line}`));
const total = all.reduce((n, g) => n + g.run.length, 0);
step(
  `${total} shell block(s) in ${all.length} file(s); ${notRun.length} marked no-run: ${notRun.join(', ') || 'none'}`,
);

const work = mkdtempSync(path.join(tmpdir(), 'corridor-docs-'));
const clientId = 'docs-test';
const clientSecret = randomBytes(32).toString('base64url');
const failures = [];
let server;
try {
  step('npm start on an empty data directory');
  const started = await startServer(path.join(work, 'data'), clientId, clientSecret);
  server = started.server;
  const env = {
    ...process.env,
    CLIENT_ID: clientId,
    CLIENT_SECRET: clientSecret,
    API: `http://localhost:${started.port}/api/2025-10-13`,
    RECEIVER_PORT: String(await freePort()),
  };
  for (const guide of selected) {
    if (!guide.run.length) {
      step(`${guide.file}: no shell blocks`);
      continue;
    }
    const r = await runGuide(guide, env, work);
    step(`${guide.file}: ${r.ok ? 'passed' : 'FAILED'} (${guide.run.length} block(s), ${r.seconds.toFixed(1)} s)`);
    if (!r.ok) failures.push(describeFailure(guide, r));
  }
  const readme = selected.find((g) => g.file === 'README.md');
  if (readme) failures.push(...(await rerunReadme(readme, env, work, clientSecret)));
} finally {
  if (server) await stopServer(server);
  rmSync(work, { recursive: true, force: true });
}
for (const f of failures) console.error(`\n[docs] ${f}`);
step(failures.length ? `${failures.length} failure(s)` : 'passed');
process.exit(failures.length ? 1 : 0);
