import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimumOf, nodeVersionProblem, olderThan } from '../scripts/node-version.mjs';

// `npm start` refuses a Node.js older than package.json's engines (the version README names)
// with a clear sentence, before loading anything else (scripts/node-version.mjs).
const ROOT = path.join(__dirname, '..');

/** Runs `node scripts/start.mjs` as if this Node were `version` (a preload rewrites process.versions). */
function startAs(version: string) {
  const preload = `data:text/javascript,Object.defineProperty(process,'versions',{value:{...process.versions,node:'${version}'}});`;
  return spawnSync(process.execPath, ['--import', preload, path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    // A short secret makes a supported Node stop right after the version check, at the next one.
    env: { ...process.env, CORRIDOR_CLIENT_SECRET: 'short', PORT: '1' },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('the Node.js version npm start needs', () => {
  it('compares versions part by part against the engines range', () => {
    expect(minimumOf('>=20.19')).toEqual([20, 19, 0]);
    expect(minimumOf('>= 22.12.1')).toEqual([22, 12, 1]);
    expect(() => minimumOf('^20.19 || >=22')).toThrow(/engines.node must read/);
    for (const old of ['18.20.4', '20.18.3', '20.9.0', 'v20.18.0']) expect(olderThan(old, [20, 19, 0]), old).toBe(true);
    for (const ok of ['20.19.0', '20.19.5', '20.20.2', '22.1.0', '24.0.0'])
      expect(olderThan(ok, [20, 19, 0]), ok).toBe(false);
    expect(nodeVersionProblem(process.versions.node)).toBeNull();
  });

  it('refuses an older Node.js with a clear message before anything starts', () => {
    const r = startAs('20.18.3');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot start: this is Node\.js 20\.18\.3; Corridor needs Node\.js 20\.19\.0 or later/);
    expect(r.stdout).not.toMatch(/building|database/i);
  });

  it('lets the supported version past the check', () => {
    const r = startAs('20.19.0');
    expect(r.status).toBe(1);
    expect(r.stderr).not.toMatch(/Node\.js/);
    expect(r.stderr).toMatch(/CORRIDOR_CLIENT_SECRET is 5 characters long/);
  });
});
