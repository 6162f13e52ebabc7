import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db, transaction } from '@/lib/core/db';
import { setLogDestination } from '@/lib/core/log';
import { enqueue, runDueJobs } from '@/lib/jobs/queue';
import { HEADER, file, person, upload } from '@/lib/bulk-import/testing';
import { createAgent, redeem, agentApi } from '@/lib/agents/testing';
import { enrollTotp, euCustomer } from '@/lib/sca/testing';
import * as invitations from '@/lib/staff/invitations';
import * as staff from '@/lib/staff/service';
import { advanceClock } from '@/lib/platform/repository';
import { outboxOf } from '@/lib/notify/sender';
import { newWallet, otpLogin } from '@/lib/wallet-auth/testing/flows';
import { deliverDueWebhooks, FIRST_RETRY_DELAY_MS } from '@/lib/webhooks/service';
import { newPlatform, type TestPlatform } from './support/api';
import { switchMode } from './support/mode';
import { receiverFor, type Receiver } from './support/webhook-receiver';

// Issue 28 point 1, past the request line (tests/request-log.test.ts): the worker writes one JSON
// line per job run and per webhook attempt, with ids and outcomes only; a run that hands out
// device codes, staff invitation links, TOTP secrets, recovery codes and one-time codes logs none
// of them, nor a job's payload nor a webhook's body; and CORRIDOR_LOG_LEVEL=warn drops all of these.
type Line = Record<string, unknown>;
const lines: Line[] = [];
const capture = (into: Line[], text: { raw: string }) =>
  new Writable({
    write(chunk, _enc, done) {
      text.raw += chunk.toString();
      for (const line of chunk.toString().split('\n')) if (line.trim()) into.push(JSON.parse(line));
      done();
    },
  });
const captured = { raw: '' };

let p: TestPlatform;
let q: TestPlatform; // its webhooks go to a receiver
let rx: Receiver | undefined;
const previousLevel = process.env.CORRIDOR_LOG_LEVEL;
beforeAll(async () => {
  process.env.CORRIDOR_LOG_LEVEL = 'trace';
  process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1'; // the receiver listens on loopback
  setLogDestination(capture(lines, captured));
  p = await newPlatform();
});
afterAll(async () => {
  if (previousLevel === undefined) delete process.env.CORRIDOR_LOG_LEVEL;
  else process.env.CORRIDOR_LOG_LEVEL = previousLevel;
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
  setLogDestination(undefined);
  switchMode('sandbox');
  await rx?.close();
});
const text = () => captured.raw;
/** A line's field names, sorted: what it may say is exactly these. */
const fieldsOf = (l: Line) => Object.keys(l).sort().join(' ');

it('writes one line per job run: kind, job id, platform, attempt, outcome and time, never the payload', async () => {
  const imported = await upload(p.api, file(HEADER, person(`logline-${Date.now()}`, 'Imogen Importline')));
  expect(imported.status, imported.text).toBe(202);
  // A job no handler knows fails; its line says why, in the error's words, and not what it carried.
  const probe = `payload-probe-${randomBytes(6).toString('hex')}`;
  const unknown = await transaction((tx) =>
    enqueue(tx, { platformId: p.platformId, kind: 'log.probe.unknown', payload: { probe } }),
  );
  try {
    await runDueJobs({ platformId: p.platformId });
    const jobLines = lines.filter((l) => l.msg === 'job' && l.platformId === p.platformId);
    const done = jobLines.find((l) => l.job === 'BULK_CUSTOMER_IMPORT');
    expect(done).toMatchObject({ level: 'info', pid: process.pid, attempt: 1, outcome: 'done' });
    expect(done!.jobId).toMatch(/^Job:/);
    expect(fieldsOf(done!)).toBe('attempt job jobId level ms msg outcome pid platformId time');
    expect(typeof done!.ms).toBe('number');
    const failed = jobLines.find((l) => l.jobId === unknown);
    expect(failed).toMatchObject({ job: 'log.probe.unknown', outcome: 'failed', attempt: 1, level: 'info' });
    expect(failed!.err).toBe('no handler registered for job kind log.probe.unknown');
    expect(text()).not.toContain(probe);
    expect(text()).not.toContain('Imogen Importline');
  } finally {
    await db().job.delete({ where: { id: unknown } });
  }
});

it('writes one line per webhook attempt: event, platform, attempt, outcome and time, never the body', async () => {
  q = await newPlatform();
  ({ rx } = await receiverFor(q, (r) =>
    r.json.type === 'TEST' ? { status: 200, body: 'receiver-said-ok' } : { status: 503, body: 'receiver-said-busy' },
  ));
  const customer = await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Wilma Webhookline' });
  expect(customer.status, customer.text).toBe(201);
  const summary = await deliverDueWebhooks({ platformId: q.platformId });
  const attempts = lines.filter((l) => l.msg === 'webhook attempt' && l.platformId === q.platformId);
  expect(attempts).toHaveLength(summary.attempted);
  expect(attempts.map((l) => l.outcome).sort()).toEqual(
    [...Array(summary.delivered).fill('DELIVERED'), ...Array(summary.retrying).fill('PENDING')].sort(),
  );
  for (const l of attempts) {
    expect(l).toMatchObject({ level: 'info', attempt: 1 });
    expect(l.webhookEvent).toMatch(/^[A-Za-z]+:[0-9a-f-]{36}$/);
    expect(typeof l.ms).toBe('number');
    expect(fieldsOf(l)).toBe('attempt level ms msg outcome pid platformId time webhookEvent');
  }
  for (const needle of ['Wilma Webhookline', customer.body.id, 'receiver-said-ok', 'receiver-said-busy', rx.url])
    expect(text(), needle).not.toContain(needle);
});

it('logs no device code, agent token, invitation link, TOTP secret, recovery code or one-time code', async () => {
  const secrets: string[] = [];
  // An agent's device code, redeemed for its access token, which then calls the API.
  const holder = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Agnes Agentline' });
  const { deviceCode } = await createAgent(p, holder.body.id);
  const token = await redeem(deviceCode.code);
  expect((await agentApi(token).get('/agents/me')).status).toBe(200);
  secrets.push(deviceCode.code, token);
  // A staff invitation link's token, accepted; the admin's session.
  const email = `log-admin-${process.pid}-${Date.now()}@staff.example`;
  await staff.createUser(p.platformId, { email, role: 'admin', password: 'a-password-of-my-own' }, db());
  const { sessionId } = await staff.signIn(email, 'a-password-of-my-own', '10.9.9.9');
  const admin = (await staff.actorOf(sessionId))!;
  const invited = await invitations.invite(admin, { email: `invitee-${Date.now()}@staff.example`, role: 'viewer' });
  await invitations.accept(invited.token, 'another-password-of-mine');
  secrets.push(sessionId, invited.token);
  // A customer's TOTP factor: its secret and recovery codes.
  const sca = await euCustomer(p);
  const totp = await enrollTotp(p, sca);
  secrets.push(totp.secret, ...totp.recoveryCodes);
  // A one-time code a production instance sends (8 letters and digits), then signed in with.
  await p.api.patch('/config', { embeddedWalletConfig: { otpLength: 8, alphanumeric: true } });
  const w = await newWallet(p);
  switchMode('production');
  const ch = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  expect(ch.status, ch.text).toBe(200);
  const code = /code is ([A-Z0-9]+)\./.exec(outboxOf(p.platformId, w.email)[0].text)![1];
  await otpLogin(p.api, w.emailOtpId, { code, targetBundle: ch.body.otpEncryptionTargetBundle });
  switchMode('sandbox');
  secrets.push(code, code.toLowerCase());

  // The lines of the API, the worker and the staff actions were all captured here.
  expect(lines.some((l) => l.msg === 'request' && l.route === '/agents/me')).toBe(true);
  expect(lines.some((l) => l.msg === 'job')).toBe(true);
  expect(secrets.length).toBeGreaterThan(10);
  for (const needle of secrets) expect(text(), needle).not.toContain(needle);
});

it('CORRIDOR_LOG_LEVEL=warn writes no request, job or webhook attempt line', async () => {
  const quiet: Line[] = [];
  process.env.CORRIDOR_LOG_LEVEL = 'warn';
  setLogDestination(capture(quiet, { raw: '' }));
  try {
    expect((await p.api.get('/customers')).status).toBe(200);
    const imported = await upload(p.api, file(HEADER, person(`quiet-${Date.now()}`)));
    expect(imported.status, imported.text).toBe(202);
    expect(await runDueJobs({ platformId: p.platformId })).toBeGreaterThan(0);
    // The refused events are due again once the platform's clock passes their retry delay.
    await advanceClock(q.platformId, BigInt(FIRST_RETRY_DELAY_MS * 4));
    expect((await deliverDueWebhooks({ platformId: q.platformId })).attempted).toBeGreaterThan(0);
    expect(quiet.filter((l) => l.level === 'info' || l.level === 'debug' || l.level === 'trace')).toEqual([]);
  } finally {
    process.env.CORRIDOR_LOG_LEVEL = 'trace';
    setLogDestination(capture(lines, captured));
  }
  // Back at a chattier level, the same request is logged again.
  const again = await p.api.get('/customers');
  expect(again.status).toBe(200);
  const line = lines.find((l) => l.reqId === again.headers.get('x-request-id'));
  expect(line).toMatchObject({ msg: 'request', route: '/customers', level: 'info' });
});
