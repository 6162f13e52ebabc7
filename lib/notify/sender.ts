import { port } from '../core/ports';
import { now } from '../core/clock';
import { currentCorridor } from '../core/context';
import { DomainError } from '../core/errors';
import { errorText, log } from '../core/log';

// Outbound messages (OTP codes, contact verification) go through this port, shaped the way email
// and SMS providers answer: a submission is accepted (the provider took it, with its reference),
// refused (it never will: bad address, bad credentials) or to be retried later (busy, throttled,
// unreachable). sendMessage retries the last kind a few times with backoff; the others end the
// attempt there. A sandbox instance plugs the development sender, which keeps messages in an
// in-memory outbox that tests and the admin console read. A production instance plugs the
// providers its configuration connects (lib/notify/providers.ts: SMTP, a Twilio-shaped SMS API);
// a channel with none connected refuses at once — a code is never pretended to be sent.
// Messages are never persisted or logged: they carry one-time codes, which must not rest in the clear.
export type Channel = 'EMAIL' | 'SMS';

export interface OutboundMessage {
  platformId: string;
  channel: Channel;
  to: string;
  subject?: string;
  text: string;
  /** What the message is for, e.g. CONTACT_VERIFICATION or WALLET_OTP. */
  purpose: string;
  sentAt: Date;
}

/** A provider's answer to one submission. */
export type Delivery =
  | { outcome: 'ACCEPTED'; reference?: string }
  | { outcome: 'REFUSED'; reason: string }
  | { outcome: 'RETRY_LATER'; reason: string; retryAfterMs?: number };

export interface Sender {
  send(message: Omit<OutboundMessage, 'sentAt'>): Promise<Delivery>;
  /** Whether anything delivers messages on `channel` (absent: every channel is delivered). */
  connected?(channel: Channel): boolean;
}

const OUTBOX_LIMIT = 500;

declare module '../core/context' {
  interface CorridorParts {
    /** The development sender's messages in this instance (never persisted). */
    outbox: OutboundMessage[];
  }
}

export const developmentSender: Sender & { describe(): AdapterLine } = {
  async send(message) {
    const outbox = currentCorridor().outbox;
    outbox.push({ ...message, sentAt: now() });
    if (outbox.length > OUTBOX_LIMIT) outbox.splice(0, outbox.length - OUTBOX_LIMIT);
    return { outcome: 'ACCEPTED' };
  },
  describe: () => ({
    party: 'email and SMS',
    adapter: 'sandbox',
    connected: false,
    detail: 'messages stay in the development outbox (console: Sandbox)',
  }),
};

/** What an adapter says about itself in the start-up summary (the shape lib/wiring.ts prints). */
export interface AdapterLine {
  party: string;
  adapter: string;
  connected: boolean;
  detail?: string;
}

/** Email and SMS delivery (plugged in by lib/wiring.ts). */
export const messageSender = port<Sender>('notify.sender');

export const CHANNEL_LABEL: Record<Channel, string> = { EMAIL: 'email', SMS: 'SMS' };

/** How often, and how long apart, a submission the provider asked to retry is tried again. */
export const DELIVERY_ATTEMPTS = 3;
const BACKOFF_MS = 250;
/** The longest wait between attempts: the person asking for the code is waiting for the answer. */
const MAX_WAIT_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function notConnected(channel: Channel): DomainError {
  return new DomainError(
    'SERVICE_UNAVAILABLE',
    `No ${CHANNEL_LABEL[channel]} provider is connected to this service: the code cannot be sent`,
    { channel, reason: 'NO_PROVIDER_CONNECTED' },
    { retryable: false },
  );
}

/**
 * Refuses at once when no provider delivers `channel` — before any code is issued, so a sign-in
 * answers the same whether or not the credential exists.
 */
export function requireChannel(channel: Channel): void {
  const sender = messageSender.get();
  if (sender.connected && !sender.connected(channel)) throw notConnected(channel);
}

/**
 * Hands a message to the channel's provider: accepted → done; refused → SERVICE_UNAVAILABLE at
 * once; retry later → tried again after a backoff (the provider's Retry-After when it gave one),
 * DELIVERY_ATTEMPTS times in all, then SERVICE_UNAVAILABLE with the wait the provider asked for.
 */
export async function sendMessage(message: Omit<OutboundMessage, 'sentAt'>): Promise<Delivery> {
  requireChannel(message.channel);
  const sender = messageSender.get();
  const label = CHANNEL_LABEL[message.channel];
  let last: Delivery | undefined;
  for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
    last = await sender.send(message);
    if (last.outcome === 'ACCEPTED') return last;
    // The reason is the provider's (status, error code): it never carries the message.
    log().warn(
      { channel: message.channel, purpose: message.purpose, outcome: last.outcome, reason: last.reason, attempt },
      'message delivery not accepted',
    );
    if (last.outcome === 'REFUSED')
      throw new DomainError(
        'SERVICE_UNAVAILABLE',
        `The ${label} provider refused the message (${last.reason})`,
        { channel: message.channel, reason: 'PROVIDER_REFUSED' },
        { retryable: false },
      );
    const wait = last.retryAfterMs ?? BACKOFF_MS * 2 ** (attempt - 1);
    if (attempt === DELIVERY_ATTEMPTS || wait > MAX_WAIT_MS) break;
    await sleep(wait);
  }
  const retryAfterSeconds = Math.max(1, Math.ceil(((last as { retryAfterMs?: number }).retryAfterMs ?? 0) / 1000));
  throw new DomainError(
    'SERVICE_UNAVAILABLE',
    `The ${label} provider did not take the message (${(last as { reason: string }).reason}); try again shortly`,
    { channel: message.channel, reason: 'PROVIDER_BUSY' },
    { retryable: true, retryAfterSeconds },
  );
}

/** A sender that hands each channel to its own provider; a channel without one is not connected. */
export function channelSenders(
  providers: Partial<Record<Channel, Sender & { describe(): AdapterLine }>>,
): Sender & { describe(): AdapterLine } {
  return {
    connected: (channel) => providers[channel] !== undefined,
    async send(message) {
      const provider = providers[message.channel];
      if (!provider) throw notConnected(message.channel);
      try {
        return await provider.send(message);
      } catch (err) {
        // An adapter answers with outcomes; a throw is a fault in it, kept out of the answer.
        log().error({ channel: message.channel, err: errorText(err) }, 'message provider failed');
        return { outcome: 'RETRY_LATER', reason: 'provider adapter error' };
      }
    },
    describe: () => {
      const lines = (['EMAIL', 'SMS'] as const).map((c) => {
        const p = providers[c]?.describe();
        return p
          ? `${CHANNEL_LABEL[c]}: ${p.adapter}${p.detail ? ` (${p.detail})` : ''}`
          : `${CHANNEL_LABEL[c]}: NOT CONNECTED (${c === 'EMAIL' ? 'set CORRIDOR_SMTP_URL' : 'set CORRIDOR_TWILIO_ACCOUNT_SID'}; codes are refused)`;
      });
      return {
        party: 'email and SMS',
        adapter:
          [providers.EMAIL?.describe().adapter, providers.SMS?.describe().adapter].filter(Boolean).join(' + ') ||
          'none',
        connected: providers.EMAIL !== undefined && providers.SMS !== undefined,
        detail: lines.join('; '),
      };
    },
  };
}

/** Messages the development sender holds for a platform, newest last. */
export function outboxOf(platformId: string, to?: string): OutboundMessage[] {
  return currentCorridor().outbox.filter((m) => m.platformId === platformId && (to === undefined || m.to === to));
}
