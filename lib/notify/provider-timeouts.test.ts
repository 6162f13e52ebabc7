import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendersFromEnv } from './providers';

// A provider that takes the connection and then says nothing must cost a request no more than
// the configured timeout (CORRIDOR_SMS_TIMEOUT_MS, CORRIDOR_SMTP_TIMEOUT_MS, docs/configuration.md),
// and answer "retry later" — never hang, never count as delivered or refused.
const TIMEOUT_MS = 300;
const servers: { server: Server; sockets: Set<Socket> }[] = [];
afterEach(async () => {
  for (const { server, sockets } of servers.splice(0)) {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

/** Listens on loopback, keeping every connection open and unanswered. */
async function silent(server: Server): Promise<number> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  servers.push({ server, sockets });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const message = { platformId: 'Platform:test', text: 'Your code is 482913', purpose: 'SCA_LOGIN' };

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

describe('a provider that never answers', () => {
  it('SMS: the HTTP receiver reads the request and never answers → RETRY_LATER within CORRIDOR_SMS_TIMEOUT_MS', async () => {
    let received = 0;
    const port = await silent(createHttpServer(() => void received++)); // no response, ever
    const sender = sendersFromEnv({
      CORRIDOR_TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      CORRIDOR_TWILIO_AUTH_TOKEN: 'token',
      CORRIDOR_TWILIO_FROM: '+14155550100',
      CORRIDOR_SMS_URL: `http://127.0.0.1:${port}`,
      CORRIDOR_SMS_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    const { value, ms } = await timed(() => sender.send({ ...message, channel: 'SMS', to: '+14155550123' }));
    expect(value).toEqual({ outcome: 'RETRY_LATER', reason: 'SMS API timed out' });
    expect(received).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(TIMEOUT_MS + 2_000); // not the 10 s default
  });

  it('SMTP: the relay accepts the connection and never greets → RETRY_LATER within CORRIDOR_SMTP_TIMEOUT_MS', async () => {
    const port = await silent(createTcpServer());
    const sender = sendersFromEnv({
      CORRIDOR_SMTP_URL: `smtp://127.0.0.1:${port}`,
      CORRIDOR_SMTP_FROM: 'Corridor <no-reply@example.com>',
      CORRIDOR_SMTP_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    const { value, ms } = await timed(() =>
      sender.send({ ...message, channel: 'EMAIL', to: 'someone@example.com', subject: 'Your code' }),
    );
    expect(value).toMatchObject({ outcome: 'RETRY_LATER' });
    expect((value as { reason: string }).reason).toMatch(/^SMTP /);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(TIMEOUT_MS + 2_000);
  });
});
