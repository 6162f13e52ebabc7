import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { httpRailFromEnv } from './rail-http';

// The bring-your-own rail's endpoint takes the instruction and never answers: the submission ends
// after CORRIDOR_RAIL_TIMEOUT_MS as RETRY (the worker offers it again after a backoff), never
// hanging the worker and never taken as accepted or refused.
const TIMEOUT_MS = 300;
let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const pem = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};

it('an endpoint that reads the instruction and never answers → RETRY within CORRIDOR_RAIL_TIMEOUT_MS', async () => {
  const received: string[] = [];
  server = createServer((req) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => received.push(body)); // and no response, ever
  });
  server.on('connection', (s: Socket) => sockets.add(s));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const ours = pem();
  const theirs = pem();
  const rail = httpRailFromEnv({
    CORRIDOR_RAIL_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/instructions`,
    CORRIDOR_RAIL_SIGNING_KEY: ours.privateKey,
    CORRIDOR_RAIL_CALLBACK_PUBLIC_KEY: theirs.publicKey,
    CORRIDOR_RAIL_TIMEOUT_MS: String(TIMEOUT_MS),
  })!;
  expect(rail.config.timeoutMs).toBe(TIMEOUT_MS);
  const started = performance.now();
  const submission = await rail.submit({
    reference: 'Transaction:00000000-0000-4000-8000-000000000001',
    kind: 'PAYOUT',
    platformId: 'Platform:test',
    amount: '10000',
    currency: 'EUR',
    rail: 'SEPA_INSTANT',
    account: {
      externalAccountId: 'ExternalAccount:test',
      accountType: 'EUR_ACCOUNT',
      identifier: 'DE89370400440532013000',
    },
    description: null,
  });
  const ms = performance.now() - started;
  expect(submission.outcome).toBe('RETRY');
  expect(received).toHaveLength(1);
  expect(JSON.parse(received[0])).toMatchObject({
    type: 'PAYOUT',
    reference: 'Transaction:00000000-0000-4000-8000-000000000001',
  });
  expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
  expect(ms).toBeLessThan(TIMEOUT_MS + 2_000); // not the 10 s default
});
