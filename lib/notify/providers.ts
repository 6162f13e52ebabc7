import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import type { AdapterLine, Delivery, Sender } from './sender';
import { channelSenders } from './sender';

// The real message providers a production instance connects (docs/operations.md, "Providers:
// what is real and what to connect"; their variables in docs/configuration.md):
// - email over SMTP with nodemailer: CORRIDOR_SMTP_URL (smtps:// is TLS from the first byte;
//   smtp:// upgrades with STARTTLS when the server offers it, and must when the URL says
//   `?requireTLS=true`), CORRIDOR_SMTP_FROM the sender address, CORRIDOR_SMTP_CA a PEM file of
//   extra trusted certificate authorities (a private relay's own CA). Certificates are always
//   verified: a relay whose certificate does not check out is refused, never used in the clear.
// - SMS over an HTTP API in Twilio's Messages shape: POST {CORRIDOR_SMS_URL}/2010-04-01/Accounts/
//   {CORRIDOR_TWILIO_ACCOUNT_SID}/Messages.json, form fields To, From (CORRIDOR_TWILIO_FROM; a
//   Messaging Service SID MG… goes as MessagingServiceSid) and Body, HTTP Basic auth with the
//   account SID and CORRIDOR_TWILIO_AUTH_TOKEN. Twilio itself, or any gateway speaking the shape.
// Each answers in the Sender port's outcomes: accepted, refused (it never will), retry later.
type Env = Record<string, string | undefined>;
type Provider = Sender & { describe(): AdapterLine };

/**
 * Default per-request limit for the SMS API, and the SMTP connection's (connect, greeting, each
 * reply): a provider that does not answer is asked again later, never waited on by a request.
 * CORRIDOR_SMS_TIMEOUT_MS and CORRIDOR_SMTP_TIMEOUT_MS set them.
 */
const TIMEOUT_MS = 10_000;

/** A positive number of milliseconds from the environment, else the default. */
const timeoutFrom = (raw: string | undefined) => (Number(raw) > 0 ? Number(raw) : TIMEOUT_MS);

export interface SmtpOptions {
  url: string;
  from: string;
  /** Extra trusted CA certificates (PEM). */
  ca?: string;
  /** Limit for connecting, the greeting and each reply (default TIMEOUT_MS). */
  timeoutMs?: number;
}

/** SMTP reply codes 4xx are transient (RFC 5321 §4.2.1); 5xx permanent. Network trouble is transient. */
function smtpOutcome(err: unknown): Delivery {
  const e = err as { responseCode?: number; code?: string; message?: string };
  if (typeof e.responseCode === 'number') {
    const reason = `SMTP ${e.responseCode}`;
    return e.responseCode >= 500 ? { outcome: 'REFUSED', reason } : { outcome: 'RETRY_LATER', reason };
  }
  // A certificate that does not verify, or a relay that will not do TLS when TLS is required,
  // is a configuration to fix, not a moment to wait out.
  if (e.code === 'ETLS' || e.code === 'EAUTH' || /certificate|self.signed|STARTTLS/i.test(e.message ?? ''))
    return { outcome: 'REFUSED', reason: e.code === 'EAUTH' ? 'SMTP authentication failed' : 'SMTP TLS failed' };
  return { outcome: 'RETRY_LATER', reason: `SMTP ${e.code ?? 'connection failed'}` };
}

export function smtpSender(options: SmtpOptions): Provider {
  const url = new URL(options.url);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error('CORRIDOR_SMTP_URL must start with smtp:// or smtps://');
  const parsed = parseSmtpUrl(options.url);
  const transport = nodemailer.createTransport({
    ...parsed,
    connectionTimeout: options.timeoutMs ?? TIMEOUT_MS,
    greetingTimeout: options.timeoutMs ?? TIMEOUT_MS,
    socketTimeout: options.timeoutMs ?? TIMEOUT_MS,
    // Verification stays on whatever the URL says: ca adds trust, nothing removes it.
    tls: { ...parsed.tls, rejectUnauthorized: true, ...(options.ca ? { ca: options.ca } : {}) },
  });
  const where = `${url.protocol === 'smtps:' ? 'SMTPS' : 'SMTP'} ${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`;
  return {
    async send(message) {
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject ?? 'Your code',
          text: message.text,
        });
        if (info.rejected.length) return { outcome: 'REFUSED', reason: 'SMTP recipient rejected' };
        return { outcome: 'ACCEPTED', reference: info.messageId };
      } catch (err) {
        return smtpOutcome(err);
      }
    },
    describe: () => ({ party: 'email', adapter: 'SMTP', connected: true, detail: `${where}, from ${options.from}` }),
  };
}

/**
 * The transport options a URL names, as nodemailer reads them: smtps:// → TLS from the start
 * (port 465), smtp:// → STARTTLS when offered (port 587), user:password@ → AUTH, and the query
 * options requireTLS / name and tls.* (servername, minVersion...).
 */
function parseSmtpUrl(raw: string): Record<string, unknown> & { tls?: Record<string, unknown> } {
  const url = new URL(raw);
  const secure = url.protocol === 'smtps:';
  const options: Record<string, unknown> & { tls?: Record<string, unknown> } = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
  };
  if (url.username) options.auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
  for (const [key, value] of url.searchParams) {
    const v = value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value;
    if (key.startsWith('tls.')) options.tls = { ...options.tls, [key.slice(4)]: v };
    else if (key === 'requireTLS' || key === 'name') options[key] = v;
  }
  return options;
}

export interface TwilioOptions {
  /** The API's base URL (https://api.twilio.com, or a gateway speaking the same shape). */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** A sending number (E.164) or a Messaging Service SID (MG…). */
  from: string;
  /** Limit for one request, answer included (default TIMEOUT_MS). */
  timeoutMs?: number;
}

/** Seconds or an HTTP date, as Retry-After carries them; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export function twilioSender(options: TwilioOptions): Provider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const endpoint = `${base}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  return {
    async send(message) {
      const form = new URLSearchParams({ To: message.to, Body: message.text });
      form.set(/^MG[0-9a-f]{32}$/i.test(options.from) ? 'MessagingServiceSid' : 'From', options.from);
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: {
            authorization: auth,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: form,
          signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
          redirect: 'error',
        });
      } catch (err) {
        const name = (err as Error).name;
        return {
          outcome: 'RETRY_LATER',
          reason: name === 'TimeoutError' ? 'SMS API timed out' : 'SMS API unreachable',
        };
      }
      const body = (await res.json().catch(() => ({}))) as { sid?: unknown; code?: unknown; message?: unknown };
      if (res.ok) return { outcome: 'ACCEPTED', ...(typeof body.sid === 'string' ? { reference: body.sid } : {}) };
      const reason = `SMS API ${res.status}${typeof body.code === 'number' ? ` error ${body.code}` : ''}`;
      if (res.status === 429 || res.status >= 500)
        return { outcome: 'RETRY_LATER', reason, retryAfterMs: retryAfterMs(res.headers.get('retry-after')) };
      return { outcome: 'REFUSED', reason };
    },
    describe: () => ({
      party: 'SMS',
      adapter: 'Twilio-shaped HTTP',
      connected: true,
      detail: `${new URL(base).host}, from ${options.from}`,
    }),
  };
}

/**
 * The production message sender the environment connects: SMTP when CORRIDOR_SMTP_URL is set,
 * SMS when CORRIDOR_TWILIO_ACCOUNT_SID is; a channel left unset refuses its messages.
 */
export function sendersFromEnv(env: Env): Sender & { describe(): AdapterLine } {
  const providers: Partial<Record<'EMAIL' | 'SMS', Provider>> = {};
  if (env.CORRIDOR_SMTP_URL) {
    if (!env.CORRIDOR_SMTP_FROM)
      throw new Error('CORRIDOR_SMTP_URL is set but CORRIDOR_SMTP_FROM (the sender address) is not');
    providers.EMAIL = smtpSender({
      url: env.CORRIDOR_SMTP_URL,
      from: env.CORRIDOR_SMTP_FROM,
      ...(env.CORRIDOR_SMTP_CA ? { ca: readFileSync(env.CORRIDOR_SMTP_CA, 'utf8') } : {}),
      timeoutMs: timeoutFrom(env.CORRIDOR_SMTP_TIMEOUT_MS),
    });
  }
  if (env.CORRIDOR_TWILIO_ACCOUNT_SID) {
    const missing = [
      env.CORRIDOR_TWILIO_AUTH_TOKEN ? '' : 'CORRIDOR_TWILIO_AUTH_TOKEN',
      env.CORRIDOR_TWILIO_FROM ? '' : 'CORRIDOR_TWILIO_FROM',
    ].filter(Boolean);
    if (missing.length) throw new Error(`CORRIDOR_TWILIO_ACCOUNT_SID is set but ${missing.join(' and ')} not`);
    providers.SMS = twilioSender({
      baseUrl: env.CORRIDOR_SMS_URL || 'https://api.twilio.com',
      accountSid: env.CORRIDOR_TWILIO_ACCOUNT_SID,
      authToken: env.CORRIDOR_TWILIO_AUTH_TOKEN!,
      from: env.CORRIDOR_TWILIO_FROM!,
      timeoutMs: timeoutFrom(env.CORRIDOR_SMS_TIMEOUT_MS),
    });
  }
  return channelSenders(providers);
}
