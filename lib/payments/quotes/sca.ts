import { now } from '../../core/clock';
import { transaction, type Tx } from '../../core/db';
import { DomainError, fieldError, notFound } from '../../core/errors';
import * as codes from '../../codes/service';
import { recordEvent } from '../../events/outbox';
import { sendMessage } from '../../notify/sender';
import * as customers from '../../customers/repository';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import * as repo from './repository';
import { toQuote, type ScaState } from './presenter';

// Strong Customer Authentication of real-time-funding quotes for customers in SCA regions: the
// quote waits in PENDING_AUTHORIZATION with its payment instructions withheld until the customer
// proves the SMS code (POST /quotes/{id}/authorize). The code is a one-time code of lib/codes
// whose subject is the quote; it lives as long as the quote's challenge.
export const SANDBOX_SCA_CODE = '123456';

export const SCA_CODES: codes.CodePurpose = {
  name: 'QUOTE_SCA',
  ttlSeconds: 120, // replaced by the challenge's own expiry at each issue
  maxAttempts: 5,
  resend: { afterSeconds: 30 },
  sandbox: { code: SANDBOX_SCA_CODE },
};

/** Issues the quote's code (at creation, or on resend) valid until the challenge expires. */
export function issueScaCode(tx: Tx, platformId: string, quoteId: string, expiresAt: Date) {
  const ttlSeconds = Math.max(1, Math.ceil((expiresAt.getTime() - now().getTime()) / 1000));
  return codes.issue(tx, SCA_CODES, { platformId, subject: quoteId, ttlSeconds });
}

export async function sendScaCode(platformId: string, to: string, code: string): Promise<void> {
  await sendMessage({
    platformId,
    channel: 'SMS',
    to,
    text: `Your payment authorization code is ${code}`,
    purpose: 'SCA_PAYMENT',
  });
}

function refusal(result: Exclude<codes.Verification, { ok: true }>, quoteId: string): DomainError {
  switch (result.reason) {
    case 'WRONG':
      return new DomainError('INVALID_INPUT', 'The authorization code is wrong', { attemptsLeft: result.attemptsLeft });
    case 'EXHAUSTED':
      return new DomainError('RATE_LIMITED', 'Too many wrong codes: this challenge is locked', undefined, {
        'retry-after': '60',
      });
    case 'EXPIRED':
      return new DomainError('INVALID_INPUT', 'The challenge expired; create a new quote');
    case 'NONE':
      return new DomainError(
        'CONFLICT',
        `Quote ${quoteId} has no authorization code outstanding; request one with POST /quotes/${quoteId}/authorize/resend`,
      );
  }
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
    // A refusal is returned, not thrown: the counted attempt must commit.
    const result = await codes.verify(SCA_CODES, { subject: quoteId, code }, tx);
    if (!result.ok) return { error: refusal(result, quoteId) };
    const at = now();
    const scaChallenge = { ...sca, authorizedAt: at.toISOString() };
    await repo.move(quoteId, 'authorize', { scaChallenge: scaChallenge as object, updatedAt: at }, tx);
    const moved = await txRepo.transition(quote.transactionId, 'authorize', { updatedAt: at }, tx);
    if (moved) await recordEvent(tx, platformId, 'OUTGOING_PAYMENT.PENDING', toTransaction(moved));
    return { quote: toQuote({ ...quote, status: 'PENDING', scaChallenge, updatedAt: at }) };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.quote;
}

export async function resend(platformId: string, quoteId: string) {
  const sent = await transaction(async (tx) => {
    const quote = await repo.lock(platformId, quoteId, tx);
    if (!quote) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
    const sca = quote.scaChallenge as ScaState | null;
    if (!sca || quote.status !== 'PENDING_AUTHORIZATION')
      throw new DomainError('CONFLICT', `Quote ${quoteId} has no pending Strong Customer Authentication challenge`);
    // Refused with 429 and Retry-After within 30 s of the previous code.
    const issued = await issueScaCode(tx, platformId, quoteId, new Date(sca.expiresAt));
    const customer = quote.customerId ? await customers.findById(platformId, quote.customerId, tx) : null;
    return { to: customer?.phoneNumber ?? null, code: issued.code };
  });
  if (sent.to) await sendScaCode(platformId, sent.to, sent.code);
}
