import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCorridor } from '@/lib/boot';
import { currentCorridor } from '@/lib/core/context';
import { portsFor } from '@/lib/wiring';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { switchMode } from '@/tests/support/mode';
import { newWallet, otpLogin } from '@/lib/wallet-auth/testing/flows';
import { developmentSender, messageSender, type Sender } from './sender';
import { sendersFromEnv, smtpSender } from './providers';

// The real message providers against real servers on loopback: an SMTP server (smtp-server)
// with a certificate made for the test, plain, STARTTLS and implicit TLS; and an HTTP receiver
// in Twilio's Messages API shape. Then a production instance end to end: the wallet sign-in code
// arrives by SMTP and signs in; without providers the sign-in is refused, nothing pretended.

let certDir: string;
let key: string;
let cert: string;
beforeAll(() => {
  certDir = mkdtempSync(path.join(tmpdir(), 'corridor-smtp-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      path.join(certDir, 'key.pem'),
      '-out',
      path.join(certDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  key = readFileSync(path.join(certDir, 'key.pem'), 'utf8');
  cert = readFileSync(path.join(certDir, 'cert.pem'), 'utf8');
});
afterAll(() => rmSync(certDir, { recursive: true, force: true }));

interface Received {
  from: string;
  to: string[];
  secure: boolean;
  user?: string;
  raw: string;
}

const servers: { close(cb: () => void): void }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

async function smtp(options: SMTPServerOptions): Promise<{ port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    logger: false,
    ...options,
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          secure: session.secure,
          user: session.user as string | undefined,
          raw,
        });
        done();
      });
    },
  });
  server.on('error', () => {}); // a client the test refuses hangs up mid-handshake: expected here
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.server.address() as AddressInfo).port, received };
}

const message = {
  platformId: 'Platform:test',
  channel: 'EMAIL' as const,
  to: 'ana@example.com',
  subject: 'Your sign-in code',
  text: 'Your sign-in code is 482913. It expires in 5 minute(s).',
  purpose: 'WALLET_OTP',
};

describe('email over SMTP', () => {
  it('delivers over implicit TLS (smtps://) to a relay whose certificate the configured CA vouches for, with AUTH', async () => {
    const server = await smtp({
      secure: true,
      key,
      cert,
      authOptional: false,
      onAuth(auth, _session, cb) {
        if (auth.username === 'corridor' && auth.password === 's3cret') cb(null, { user: 'corridor' });
        else cb(new Error('bad credentials'));
      },
    });
    const sender = smtpSender({
      url: `smtps://corridor:s3cret@localhost:${server.port}`,
      from: 'Corridor <no-reply@corridor.test>',
      ca: cert,
    });
    expect(await sender.send(message)).toMatchObject({ outcome: 'ACCEPTED', reference: expect.any(String) });
    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({
      from: 'no-reply@corridor.test',
      to: ['ana@example.com'],
      secure: true,
      user: 'corridor',
    });
    expect(server.received[0].raw).toContain('Subject: Your sign-in code');
    expect(server.received[0].raw).toContain('Your sign-in code is 482913.');
  });

  it('refuses a relay whose certificate nobody vouches for (verification is never turned off)', async () => {
    const server = await smtp({ secure: true, key, cert });
    const sender = smtpSender({ url: `smtps://localhost:${server.port}`, from: 'no-reply@corridor.test' });
    expect(await sender.send(message)).toEqual({ outcome: 'REFUSED', reason: 'SMTP TLS failed' });
    expect(server.received).toEqual([]);
  });

  it('upgrades smtp:// with STARTTLS when offered, and refuses to go on in the clear when requireTLS says so', async () => {
    const starttls = await smtp({ key, cert });
    const sender = smtpSender({
      url: `smtp://localhost:${starttls.port}/?requireTLS=true`,
      from: 'no-reply@corridor.test',
      ca: cert,
    });
    expect(await sender.send(message)).toMatchObject({ outcome: 'ACCEPTED' });
    expect(starttls.received.map((r) => r.secure)).toEqual([true]);

    const plain = await smtp({ key, cert, disabledCommands: ['STARTTLS'] });
    const strict = smtpSender({
      url: `smtp://localhost:${plain.port}/?requireTLS=true`,
      from: 'no-reply@corridor.test',
      ca: cert,
    });
    expect(await strict.send(message)).toMatchObject({ outcome: 'REFUSED' });
    expect(plain.received).toEqual([]);
  });

  it('answers a 4xx reply as retry later, a 5xx reply as refused, an unreachable relay as retry later', async () => {
    let reply = 451;
    const server = await smtp({
      hideSTARTTLS: true,
      onRcptTo(_address, _session, cb) {
        const err = Object.assign(new Error('no'), { responseCode: reply });
        cb(err);
      },
    });
    const sender = smtpSender({ url: `smtp://127.0.0.1:${server.port}`, from: 'no-reply@corridor.test' });
    expect(await sender.send(message)).toEqual({ outcome: 'RETRY_LATER', reason: 'SMTP 451' });
    reply = 550;
    expect(await sender.send(message)).toEqual({ outcome: 'REFUSED', reason: 'SMTP 550' });
    const closed = smtpSender({ url: 'smtp://127.0.0.1:1', from: 'no-reply@corridor.test' });
    expect(await closed.send(message)).toMatchObject({ outcome: 'RETRY_LATER' });
  });
});

describe('a production instance', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
  });
  afterEach(() => {
    messageSender.set(developmentSender);
    switchMode('sandbox');
  });

  it('sends the wallet sign-in code by SMTP; the code that arrives signs in', async () => {
    const server = await smtp({ secure: true, key, cert });
    const w = await newWallet(p);
    switchMode('production');
    const tlsDir = mkdtempSync(path.join(tmpdir(), 'corridor-ca-'));
    try {
      const caFile = path.join(tlsDir, 'ca.pem');
      execFileSync('cp', [path.join(certDir, 'cert.pem'), caFile]);
      messageSender.set(
        sendersFromEnv({
          CORRIDOR_SMTP_URL: `smtps://localhost:${server.port}`,
          CORRIDOR_SMTP_FROM: 'Corridor <no-reply@corridor.test>',
          CORRIDOR_SMTP_CA: caFile,
        }),
      );
    } finally {
      rmSync(tlsDir, { recursive: true, force: true });
    }
    const ch = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
    expect(ch.status, ch.text).toBe(200);
    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({ to: [w.email], secure: true });
    const code = /code is ([A-Z0-9]+)\./.exec(server.received[0].raw)![1];
    expect(code).not.toBe('000000');
    await otpLogin(p.api, w.emailOtpId, { code, targetBundle: ch.body.otpEncryptionTargetBundle });
    expect(currentCorridor().outbox).toEqual([]); // nothing went to the development outbox
  });

  it('with no provider connected refuses the sign-in with 503 SERVICE_UNAVAILABLE and issues no code', async () => {
    const w = await newWallet(p, { phoneNumber: '+14155550177' });
    switchMode('production');
    messageSender.set(sendersFromEnv({}));
    const ch = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
    expectError(ch, 503, 'SERVICE_UNAVAILABLE');
    expect(ch.body.message).toBe('No email provider is connected to this service: the code cannot be sent');
    expect(ch.body.details).toMatchObject({ channel: 'EMAIL', reason: 'NO_PROVIDER_CONNECTED' });
    expect(currentCorridor().outbox).toEqual([]);
  });

  it('is built with the providers its environment names, and says which are connected', async () => {
    const sender = (env: Record<string, string>) => {
      const plugged = new Map(portsFor('production', env)).get(messageSender.name) as Sender & {
        describe(): { connected: boolean; detail?: string };
      };
      return plugged;
    };
    const none = sender({});
    expect([none.connected!('EMAIL'), none.connected!('SMS')]).toEqual([false, false]);
    expect(none.describe()).toMatchObject({
      connected: false,
      detail:
        'email: NOT CONNECTED (set CORRIDOR_SMTP_URL; codes are refused); SMS: NOT CONNECTED (set CORRIDOR_TWILIO_ACCOUNT_SID; codes are refused)',
    });
    const both = sender({
      CORRIDOR_SMTP_URL: 'smtp://mail.example.com:587/?requireTLS=true',
      CORRIDOR_SMTP_FROM: 'no-reply@example.com',
      CORRIDOR_TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      CORRIDOR_TWILIO_AUTH_TOKEN: 'tok',
      CORRIDOR_TWILIO_FROM: '+15005550006',
    });
    expect(both.describe()).toMatchObject({ connected: true, adapter: 'SMTP + Twilio-shaped HTTP' });
    expect(() => sender({ CORRIDOR_SMTP_URL: 'smtp://mail.example.com' })).toThrow(/CORRIDOR_SMTP_FROM/);
    // The sandbox keeps its development outbox, whatever the environment says.
    expect(new Map(portsFor('sandbox', { CORRIDOR_SMTP_URL: 'smtp://x' })).get(messageSender.name)).toBe(
      developmentSender,
    );
    // createCorridor reads its own environment.
    const prod = createCorridor({ mode: 'production', database: currentCorridor().database }, {} as NodeJS.ProcessEnv);
    try {
      expect(prod.run(() => messageSender.get().connected!('SMS'))).toBe(false);
    } finally {
      await prod.close();
    }
  });
});
