import { afterAll, beforeAll, expect, it } from 'vitest';
import { GET as benchStats } from '@/app/api/bench-stats/route';
import { PEER_ADDRESS_HEADER } from '@/lib/http/client-address';
import { basic, newPlatform, type TestPlatform } from './support/api';

// /api/bench-stats describes the server's load (statement counts, CPU time): even when a server
// runs with CORRIDOR_BENCH_STATS=1 it answers only a platform's API credentials (issue 23, item 10).
let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
  process.env.CORRIDOR_BENCH_STATS = '1';
});
afterAll(() => {
  delete process.env.CORRIDOR_BENCH_STATS;
});

const ask = (authorization?: string) =>
  benchStats(
    new Request('http://localhost/api/bench-stats', {
      headers: {
        [PEER_ADDRESS_HEADER]: '2001:db8:bbbb:cccc::1',
        ...(authorization ? { authorization } : {}),
      },
    }),
  );

it('refuses a caller without credentials, or with wrong ones, with 401 and the error body', async () => {
  for (const authorization of [undefined, basic({ ...p.credentials, clientSecret: 'wrong-secret' }), 'Bearer nope']) {
    const res = await ask(authorization);
    expect(res.status).toBe(401);
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(await res.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: expect.any(String) });
  }
});

it("answers a platform's credentials with the counters", async () => {
  const res = await ask(basic(p.credentials));
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body).toMatchObject({ pid: process.pid, statements: expect.any(Number), cpuMs: expect.any(Number) });
});

it('stays absent (404, before any credential check) unless enabled', async () => {
  delete process.env.CORRIDOR_BENCH_STATS;
  expect((await ask()).status).toBe(404);
  expect((await ask(basic(p.credentials))).status).toBe(404);
  process.env.CORRIDOR_BENCH_STATS = '1';
});
