import { port } from '../core/ports';
import { now } from '../core/clock';
import { currentCorridor } from '../core/context';

// Outbound messages (OTP codes, contact verification) go through this port. No email or SMS
// provider is connected in this installation, so the development sender keeps the messages in an
// in-memory outbox that tests and the admin console read. It is deliberately never persisted or
// logged: messages carry one-time codes, which must not rest in the clear.
export interface OutboundMessage {
  platformId: string;
  channel: 'EMAIL' | 'SMS';
  to: string;
  subject?: string;
  text: string;
  /** What the message is for, e.g. CONTACT_VERIFICATION or WALLET_OTP. */
  purpose: string;
  sentAt: Date;
}

export interface Sender {
  send(message: Omit<OutboundMessage, 'sentAt'>): Promise<void>;
}

const OUTBOX_LIMIT = 500;

declare module '../core/context' {
  interface CorridorParts {
    /** The development sender's messages in this instance (never persisted). */
    outbox: OutboundMessage[];
  }
}

export const developmentSender: Sender = {
  async send(message) {
    const outbox = currentCorridor().outbox;
    outbox.push({ ...message, sentAt: now() });
    if (outbox.length > OUTBOX_LIMIT) outbox.splice(0, outbox.length - OUTBOX_LIMIT);
  },
};

/** Email and SMS delivery (plugged in by lib/wiring.ts; a deployment plugs a real provider in there). */
export const messageSender = port<Sender>('notify.sender');

export function sendMessage(message: Omit<OutboundMessage, 'sentAt'>): Promise<void> {
  return messageSender.get().send(message);
}

/** Messages the development sender holds for a platform, newest last. */
export function outboxOf(platformId: string, to?: string): OutboundMessage[] {
  return currentCorridor().outbox.filter((m) => m.platformId === platformId && (to === undefined || m.to === to));
}
