import { randomBytes } from 'node:crypto';
import { addSeconds, now } from '../core/clock';
import { transaction } from '../core/db';
import { DomainError, fieldError, notFound } from '../core/errors';
import { isSandbox } from '../core/mode';
import { tag, tagMatches } from '../auth/vault';
import { recordEvent } from '../events/outbox';
import { sendMessage } from '../notify/sender';
import * as customers from '../customers/repository';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import * as repo from './repository';
import { toQuote, type ScaState } from './presenter';

// Strong Customer Authentication of real-time-funding quotes for customers in SCA regions: the
// quote waits in PENDING_AUTHORIZATION with its payment instructions withheld until the customer
// proves the SMS code (POST /quotes/{id}/authorize). Codes are stored hashed, bound to the quote.
export const SANDBOX_SCA_CODE = '123456';
const RESEND_AFTER_SECONDS = 30;

export function scaCode(): string {
  return isSandbox() ? SANDBOX_SCA_CODE : String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, '0');
}

/**
 * The stored form of a quote's code: keyed with the service's master key (lib/auth/vault tag, as
 * wallet OTPs), so the table alone does not give a 6-digit code away, and bound to the quote.
 */
export const codeHash = (quoteId: string, code: string) => tag(code, `sca:${quoteId}`);

export async function sendScaCode(platformId: string, to: string, code: string): Promise<void> {
  await sendMessage({
    platformId,
    channel: 'SMS',
    to,
    text: `Your payment authorization code is ${code}`,
    purpose: 'SCA_PAYMENT',
  });
}

export async function authorize(platformId: string, quoteId: string, code: string | null | undefined) {
  if (!code) throw fieldError('code', 'code is required to satisfy an SMS_OTP challenge');
  const outcome = await transaction(async (tx) => {
    const quote = await repo.lock(platformId, quoteId, tx);
    if (!quote) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
    const sca = quote.scaChallenge as ScaState | null;
    if (!sca || quote.status !== 'PENDING_AUTHORIZATION')
      throw new DomainError('CONFLICT', `Quote ${quoteId} has no pending Strong Customer Authentication challenge`);
    if (new Date(sca.expiresAt) <= now())
      throw new DomainError('INVALID_INPUT', 'The challenge expired; create a new quote');
    if ((sca.attempts ?? 0) <= 0)
      throw new DomainError('RATE_LIMITED', 'Too many wrong codes: this challenge is locked', undefined, {
        'retry-after': '60',
      });
    if (!sca.codeHash || !tagMatches(code, `sca:${quoteId}`, sca.codeHash)) {
      // Count the failure even though the request fails: commit it, then answer.
      await repo.setStatus(
        quoteId,
        ['PENDING_AUTHORIZATION'],
        'PENDING_AUTHORIZATION',
        { scaChallenge: { ...sca, attempts: (sca.attempts ?? 1) - 1 } as object },
        tx,
      );
      return {
        error: new DomainError('INVALID_INPUT', 'The authorization code is wrong', {
          attemptsLeft: (sca.attempts ?? 1) - 1,
        }),
      };
    }
    const at = now();
    const scaChallenge = { ...sca, codeHash: undefined, authorizedAt: at.toISOString() };
    await repo.setStatus(
      quoteId,
      ['PENDING_AUTHORIZATION'],
      'PENDING',
      { scaChallenge: scaChallenge as object, updatedAt: at },
      tx,
    );
    const moved = await txRepo.transition(quote.transactionId, 'authorize', { updatedAt: at }, tx);
    if (moved) await recordEvent(tx, platformId, 'OUTGOING_PAYMENT.PENDING', toTransaction(moved));
    return { quote: toQuote({ ...quote, status: 'PENDING', scaChallenge, updatedAt: at }) };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.quote;
}

export async function resend(platformId: string, quoteId: string) {
  const code = scaCode();
  const to = await transaction(async (tx) => {
    const quote = await repo.lock(platformId, quoteId, tx);
    if (!quote) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
    const sca = quote.scaChallenge as (ScaState & { sentAt?: string }) | null;
    if (!sca || quote.status !== 'PENDING_AUTHORIZATION')
      throw new DomainError('CONFLICT', `Quote ${quoteId} has no pending Strong Customer Authentication challenge`);
    const last = new Date(sca.sentAt ?? quote.createdAt.toISOString());
    const wait = Math.ceil((addSeconds(last, RESEND_AFTER_SECONDS).getTime() - now().getTime()) / 1000);
    if (wait > 0)
      throw new DomainError('RATE_LIMITED', `A code was sent recently; retry in ${wait} s`, undefined, {
        'retry-after': String(wait),
      });
    await repo.setStatus(
      quoteId,
      ['PENDING_AUTHORIZATION'],
      'PENDING_AUTHORIZATION',
      {
        scaChallenge: { ...sca, codeHash: codeHash(quoteId, code), attempts: 5, sentAt: now().toISOString() } as object,
      },
      tx,
    );
    const customer = quote.customerId ? await customers.findById(platformId, quote.customerId, tx) : null;
    return customer?.phoneNumber ?? null;
  });
  if (to) await sendScaCode(platformId, to, code);
}
