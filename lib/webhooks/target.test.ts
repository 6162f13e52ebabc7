import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '@/tests/support/webhook-receiver';
import { isPrivateAddress, resolveTarget, TargetRefused, type Resolver } from './target';
import { postSigned, RESPONSE_CAP_BYTES } from './transport';

// Target rules and the transport, without a database: which addresses are refused, that the
// connection goes to the checked address, timeouts, the response cap and redirects.
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

async function listen(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return (server.address() as AddressInfo).port;
}

const fixed = (map: Record<string, string[]>): Resolver & { calls: string[] } => {
  const calls: string[] = [];
  const fn = async (host: string) => {
    calls.push(host);
    const list = map[host];
    if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(fn, { calls });
};

describe('isPrivateAddress', () => {
  it.each([
    '10.0.0.1',
    '10.255.255.255',
    '192.168.0.1',
    '192.168.255.254',
    '169.254.169.254',
    '169.254.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '127.0.0.1',
    '127.8.9.10',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456:789a::1',
    'fdff:ffff::1',
    'fe80::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a00:1',
    'not-an-ip',
  ])('refuses %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '172.15.255.255',
    '192.169.0.1',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    'fe00::1',
  ])('allows public %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});

describe('resolveTarget', () => {
  const refused = (url: string, opts: Parameters<typeof resolveTarget>[1] = {}) =>
    expect(resolveTarget(url, { allowPrivate: false, ...opts })).rejects.toBeInstanceOf(TargetRefused);

  it('accepts http(s) only, without credentials', async () => {
    await refused('ftp://example.com/x');
    await refused('file:///etc/passwd');
    await refused('https://user:pw@example.com/');
    await refused('not a url');
  });

  it('refuses private, loopback and link-local literals', async () => {
    for (const url of [
      'http://10.1.2.3/h',
      'http://192.168.1.10:8080/h',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:3000/',
      'http://[fd00::1]/',
      'http://[fc00::5]/',
      'http://127.1/',
    ]) {
      await refused(url);
    }
  });

  it('refuses a hostname resolving to a loopback address (system resolver: localhost)', async () => {
    await expect(resolveTarget('http://localhost:9/h', { allowPrivate: false })).rejects.toThrow(
      /private, loopback or link-local/,
    );
  });

  it('refuses a hostname resolving to 127.0.0.1, or to any private address among public ones', async () => {
    const resolve = fixed({
      'hooks.example': ['127.0.0.1'],
      'mixed.example': ['93.184.216.34', '10.0.0.7'],
      'v6.example': ['fd00::7'],
    });
    // Named as configured, never with what it resolved to.
    const refusal = await resolveTarget('https://hooks.example/h', { allowPrivate: false, resolve }).catch((e) => e);
    expect(refusal).toBeInstanceOf(TargetRefused);
    expect(refusal.message).toMatch(/^hooks\.example does not resolve to public addresses only/);
    expect(refusal.message).not.toContain('127.0.0.1');
    // A name that does not resolve gets the same answer as one resolving privately.
    const unknown = await resolveTarget('https://nowhere.example/h', { allowPrivate: false, resolve }).catch((e) => e);
    expect(unknown.message).toBe(refusal.message.replace('hooks.example', 'nowhere.example'));
    await refused('https://mixed.example/h', { resolve });
    await refused('https://v6.example/h', { resolve });
  });

  it('resolves a public name to the address to connect to, and allows private ones when the setting says so', async () => {
    const resolve = fixed({ 'pub.example': ['93.184.216.34'], 'hooks.example': ['127.0.0.1'] });
    expect(await resolveTarget('https://pub.example/h', { allowPrivate: false, resolve })).toMatchObject({
      address: '93.184.216.34',
      family: 4,
    });
    expect(await resolveTarget('https://hooks.example/h', { allowPrivate: true, resolve })).toMatchObject({
      address: '127.0.0.1',
      family: 4,
    });
    await refused('https://nowhere.example/h', { resolve });
  });
});

describe('postSigned', () => {
  let rx: Receiver;

  it('connects to the checked address, not to a second DNS answer (rebinding)', async () => {
    rx = await startReceiver(() => ({ status: 204 }));
    closers.push(() => rx.close());
    // The name exists only in this resolver, so the request can only arrive if the socket is
    // pinned to the address the check returned; the resolver is asked exactly once.
    const resolve = fixed({ 'corridor-hooks.test': ['127.0.0.1'] });
    const url = `http://corridor-hooks.test:${rx.port}/hooks`;
    const result = await postSigned(url, '{"id":"x"}', 'c2ln', { allowPrivate: true, resolve });
    expect(result).toMatchObject({ status: 204, body: '' });
    expect(result.error).toBeUndefined();
    expect(resolve.calls).toEqual(['corridor-hooks.test']);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0].headers.host).toBe(`corridor-hooks.test:${rx.port}`);
    expect(rx.received[0].headers['x-grid-signature']).toBe('c2ln');
    expect(rx.received[0].body.toString()).toBe('{"id":"x"}');
  });

  it('reports a 3xx without following it', async () => {
    const hits: string[] = [];
    const port = await listen((req, res) => {
      hits.push(req.url!);
      res.writeHead(301, { location: '/other' }).end();
    });
    const result = await postSigned(`http://127.0.0.1:${port}/hooks`, '{}', 'c2ln', { allowPrivate: true });
    expect(result.status).toBe(301);
    expect(hits).toEqual(['/hooks']);
  });

  it('reads at most the response cap', async () => {
    const port = await listen((_req, res) => {
      res.writeHead(200);
      res.end('x'.repeat(100_000));
    });
    const result = await postSigned(`http://127.0.0.1:${port}/`, '{}', 'c2ln', { allowPrivate: true });
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(RESPONSE_CAP_BYTES);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const port = await listen(() => {
      /* never answers */
    });
    const result = await postSigned(`http://127.0.0.1:${port}/`, '{}', 'c2ln', { allowPrivate: true, timeoutMs: 300 });
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/no answer within 300 ms/);
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
  });

  it('never throws: a refused target is an outcome', async () => {
    const result = await postSigned('http://10.0.0.1/hooks', '{}', 'c2ln', { allowPrivate: false });
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/10\.0\.0\.1.*private/);
  });
});
