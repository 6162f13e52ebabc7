import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { TestPlatform } from './api';

// A real webhook receiver for tests: node:http on 127.0.0.1 at a random port. It verifies the
// X-Grid-Signature of every request with the platform's public key (as an integrator would) and
// answers what the test's `respond` says, so tests can fail deliveries on purpose.
export interface Received {
  path: string;
  body: Buffer;
  json: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
  signature: string | undefined;
  signatureValid: boolean;
  headers: http.IncomingHttpHeaders;
}

export type Responder = (
  r: Received,
  countForId: number,
) => { status: number; body?: string; headers?: Record<string, string> };

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Requests for one webhook id, in arrival order. */
  forId(id: string): Received[];
  setPublicKey(pem: string): void;
  respond: Responder;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  let publicKey: KeyObject | undefined;
  const received: Received[] = [];
  const state: Receiver = {
    url: '',
    port: 0,
    received,
    forId: (id) => received.filter((r) => r.json.id === id),
    setPublicKey: (pem) => {
      publicKey = createPublicKey(pem);
    },
    respond,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const signature = req.headers['x-grid-signature'] as string | undefined;
      const signatureValid =
        !!publicKey && !!signature && verify('sha256', body, publicKey, Buffer.from(signature, 'base64'));
      let json: Received['json'];
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        json = { id: '', type: '', timestamp: '', data: {} };
      }
      const r: Received = { path: req.url ?? '', body, json, signature, signatureValid, headers: req.headers };
      received.push(r);
      const answer = state.respond(r, state.forId(json.id).length);
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...(answer.headers ?? {}) });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}/hooks`;
  return state;
}

/**
 * Points `p`'s webhookEndpoint at a fresh receiver (PATCH /config, which sends the test webhook)
 * that checks every signature with the key GET /config publishes. Deliveries to loopback need
 * CORRIDOR_WEBHOOK_ALLOW_PRIVATE=1.
 */
export async function receiverFor(
  p: TestPlatform,
  respond?: Responder,
): Promise<{ rx: Receiver; publicKeyPem: string }> {
  const rx = await startReceiver(respond);
  const set = await p.api.patch('/config', { webhookEndpoint: rx.url });
  expect(set.status, set.text).toBe(200);
  const config = await p.api.get('/config');
  expect(config.status, config.text).toBe(200);
  const publicKeyPem = config.body.webhookSigningPublicKey as string;
  expect(publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
  expect(set.body.webhookSigningPublicKey).toBe(publicKeyPem);
  rx.setPublicKey(publicKeyPem);
  return { rx, publicKeyPem };
}
