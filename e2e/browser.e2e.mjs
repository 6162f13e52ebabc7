// Browser end-to-end run (part of npm test; CORRIDOR_SKIP_BROWSER_E2E=1 skips it): a production
// build made with canary secrets in its environment, its client bundles scanned for them, then a
// production server on a random port with its own temporary data directory, and the Playwright
// specs of e2e/ against it in Debian's Chromium (/usr/bin/chromium; never a downloaded browser).
// Playwright's JSON report goes to the run's folder (CORRIDOR_RUN_DIR, set by scripts/test.mjs;
// else test-results/) as playwright.json, and the screenshots to its screenshots/ folder, both
// ignored by git; E2E_SCREENSHOT_DIR=e2e/screenshots (npm run screenshots) refreshes the
// committed ones instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CANARIES, scanStatic } from './bundle-scan.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const step = (s) => console.log(`[browser-e2e] ${s}`);
const runDir = path.resolve(root, process.env.CORRIDOR_RUN_DIR || 'test-results');
const reportFile = path.join(runDir, 'playwright.json');
const screenshotDir = path.resolve(root, process.env.E2E_SCREENSHOT_DIR || path.join(runDir, 'screenshots'));
// A report left by an earlier run must not stand in for this one's.
rmSync(reportFile, { force: true });
mkdirSync(screenshotDir, { recursive: true });

if (!existsSync('/usr/bin/chromium')) {
  if (process.env.CI) {
    console.error('[browser-e2e] Chromium is required in CI (.ci/run installs it: apt-get install chromium)');
    process.exit(1);
  }
  step('Chromium (/usr/bin/chromium) is not installed: browser tests skipped (apt-get install -y chromium)');
  process.exit(0);
}

if (!process.env.CORRIDOR_E2E_SKIP_BUILD) {
  step('npm run build (with canary secrets in the environment)');
  const built = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...CANARIES },
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const scan = scanStatic(root);
if (scan.problems.length) {
  console.error(`[browser-e2e] secrets or server code in the client bundles:\n  ${scan.problems.join('\n  ')}`);
  process.exit(1);
}
step(`client bundles clean (${scan.scanned} files under .next/static scanned)`);

const port = 4900 + Math.floor(Math.random() * 900);
const dataDir = mkdtempSync(path.join(tmpdir(), 'corridor-browser-e2e-'));
const env = {
  ...process.env,
  PORT: String(port),
  CORRIDOR_DATA_DIR: dataDir,
  CORRIDOR_PUBLIC_URL: `http://localhost:${port}`,
  DATABASE_URL: '',
  CORRIDOR_SECRET_KEY: '',
  CORRIDOR_CLIENT_ID: 'e2e-browser-client',
  CORRIDOR_CLIENT_SECRET: 'e2e-browser-secret-0123456789abcdef0123',
  CORRIDOR_STAFF_EMAIL: 'admin@e2e.example',
  CORRIDOR_STAFF_PASSWORD: 'e2e-admin-password-42',
  CORRIDOR_WEBHOOK_ALLOW_PRIVATE: '1',
  CORRIDOR_WALLET_PLATFORM_ID: '',
};
step(`starting the server on port ${port} (data in ${dataDir})`);
const server = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
  cwd: root,
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let out = '';
server.stdout.on('data', (d) => (out += d));
server.stderr.on('data', (d) => (out += d));

async function stop() {
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    return;
  }
  const until = Date.now() + 20_000;
  const alive = () => {
    try {
      process.kill(-server.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  if (alive()) process.kill(-server.pid, 'SIGKILL');
}

let status = 1;
try {
  const until = Date.now() + 180_000;
  while (!/Wallet:\s+http/.test(out)) {
    if (server.exitCode !== null) throw new Error(`the server exited:\n${out}`);
    if (Date.now() > until) throw new Error(`the server did not start in time:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  step('server ready; running the Playwright specs');
  const run = spawnSync('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      E2E_REPORT_FILE: reportFile,
      E2E_SCREENSHOT_DIR: screenshotDir,
      E2E_BASE_URL: `http://localhost:${port}`,
      E2E_CLIENT_ID: env.CORRIDOR_CLIENT_ID,
      E2E_CLIENT_SECRET: env.CORRIDOR_CLIENT_SECRET,
      E2E_STAFF_EMAIL: env.CORRIDOR_STAFF_EMAIL,
      E2E_STAFF_PASSWORD: env.CORRIDOR_STAFF_PASSWORD,
    },
  });
  status = run.status ?? 1;
  step(`report: ${path.relative(root, reportFile)}; screenshots: ${path.relative(root, screenshotDir)}/`);
  if (status !== 0) console.log(`[browser-e2e] server output:\n${out.slice(-6000)}`);
} catch (err) {
  console.error(`[browser-e2e] ${err.message}`);
} finally {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(status);
