import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { developmentSender, messageSender, sendMessage } from './sender';
import { sendersFromEnv, twilioSender } from './providers';

// SMS over a Twilio-shaped HTTP API, against a local receiver on loopback: the request shape,
// retry with backoff on 5xx and 429 (Retry-After honoured), refusal on other 4xx.
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

const message = {
  platformId: 'Platform:test',
  channel: 'SMS' as const,
  to: '+14155550123',
  text: 'Your sign-in code is 482913. It expires in 5 minute(s).',
  purpose: 'SCA_LOGIN',
};

interface Posted {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: Record<string, string>;
}

/** A local receiver in Twilio's Messages API shape, answering from a script of replies. */
async function smsApi(replies: { status: number; body: unknown; headers?: Record<string, string> }[]) {
  const posted: Posted[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      posted.push({
        method: req.method!,
        url: req.url!,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        form: Object.fromEntries(new URLSearchParams(raw)),
      });
      const reply = replies.shift() ?? { status: 500, body: {} };
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, posted };
}

const created = (sid: string) => ({ status: 201, body: { sid, status: 'queued', to: '+14155550123' } });
const sms = { ...message, channel: 'SMS' as const, to: '+14155550123', subject: undefined };
const SID = 'AC0123456789abcdef0123456789abcdef';

describe('SMS over a Twilio-shaped HTTP API', () => {
  afterEach(() => messageSender.set(developmentSender));

  it('posts To/From/Body form-encoded with Basic auth to /2010-04-01/Accounts/{Sid}/Messages.json', async () => {
    const api = await smsApi([created('SM1')]);
    const sender = twilioSender({ baseUrl: api.url, accountSid: SID, authToken: 'tok', from: '+15005550006' });
    expect(await sender.send(sms)).toEqual({ outcome: 'ACCEPTED', reference: 'SM1' });
    expect(api.posted).toEqual([
      {
        method: 'POST',
        url: `/2010-04-01/Accounts/${SID}/Messages.json`,
        authorization: `Basic ${Buffer.from(`${SID}:tok`).toString('base64')}`,
        contentType: 'application/x-www-form-urlencoded',
        form: { To: '+14155550123', From: '+15005550006', Body: sms.text },
      },
    ]);
    // A Messaging Service sends from its own pool of numbers.
    const mg = await smsApi([created('SM2')]);
    const service = twilioSender({ baseUrl: mg.url, accountSid: SID, authToken: 'tok', from: `MG${'a'.repeat(32)}` });
    await service.send(sms);
    expect(mg.posted[0].form).toEqual({
      To: '+14155550123',
      MessagingServiceSid: `MG${'a'.repeat(32)}`,
      Body: sms.text,
    });
  });

  it('retries 5xx and 429 with backoff (honouring Retry-After) until accepted', async () => {
    const api = await smsApi([
      { status: 503, body: { code: 20503, message: 'Service unavailable' } },
      { status: 429, body: { code: 20429, message: 'Too many requests' }, headers: { 'retry-after': '1' } },
      created('SM3'),
    ]);
    messageSender.set(
      sendersFromEnv({
        CORRIDOR_SMS_URL: api.url,
        CORRIDOR_TWILIO_ACCOUNT_SID: SID,
        CORRIDOR_TWILIO_AUTH_TOKEN: 'tok',
        CORRIDOR_TWILIO_FROM: '+15005550006',
      }),
    );
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const started = Date.now();
    expect(await sendMessage(sms)).toEqual({ outcome: 'ACCEPTED', reference: 'SM3' });
    expect(api.posted).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000 + 250 - 50); // 250 ms backoff, then Retry-After: 1
  });

  it('refuses on a 4xx at once (no retry), and gives up after three retryable answers', async () => {
    const api = await smsApi([
      { status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number." } },
    ]);
    messageSender.set(
      sendersFromEnv({
        CORRIDOR_SMS_URL: api.url,
        CORRIDOR_TWILIO_ACCOUNT_SID: SID,
        CORRIDOR_TWILIO_AUTH_TOKEN: 'tok',
        CORRIDOR_TWILIO_FROM: '+15005550006',
      }),
    );
    await expect(sendMessage(sms)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The SMS provider refused the message (SMS API 400 error 21211)',
      facts: { retryable: false },
    });
    expect(api.posted).toHaveLength(1);

    const down = await smsApi([]); // answers 500 every time
    messageSender.set(
      sendersFromEnv({
        CORRIDOR_SMS_URL: down.url,
        CORRIDOR_TWILIO_ACCOUNT_SID: SID,
        CORRIDOR_TWILIO_AUTH_TOKEN: 'tok',
        CORRIDOR_TWILIO_FROM: '+15005550006',
      }),
    );
    await expect(sendMessage(sms)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', facts: { retryable: true } });
    expect(down.posted).toHaveLength(3);
  });
});
