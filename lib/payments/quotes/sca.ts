import { now } from '../../core/clock';
import { transaction, type Tx, db } from '../../core/db';
import { DomainError, fieldError, notFound } from '../../core/errors';
import * as scaCodes from '../../sca/codes';
import { requireSession } from '../../sca/login';
import { passkeyChallenge, provePasskey } from '../../sca/proofs';
import { newId } from '../../core/ids';
import { sessionRequiredForPayments } from '../../sca/settings';
import { recordEvent } from '../../events/outbox';
import * as customers from '../../customers/repository';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import * as repo from './repository';
import { toQuote, type ScaState } from './presenter';

// Strong Customer Authentication of real-time-funding quotes for customers in SCA regions: the
// quote waits in PENDING_AUTHORIZATION with its payment instructions withheld until the customer
// proves the SMS code, or signs the dynamically linked challenge with their enrolled passkey
// (POST /quotes/{id}/authorize). The code is an SCA code (lib/sca/codes.ts, on lib/codes) whose
// subject is the quote; it lives as long as the quote's challenge. With
// CORRIDOR_SCA_SESSION_REQUIRED=1 the customer also needs a live SCA login session.

/** Issues the quote's code (at creation, or on resend) valid until the challenge expires. */
export function issueScaCode(tx: Tx, platformId: string, quoteId: string, expiresAt: Date) {
  return scaCodes.issueUntil(tx, scaCodes.QUOTE_CODES, { platformId, subject: quoteId }, expiresAt);
}

export async function sendScaCode(platformId: string, to: string, code: string): Promise<void> {
  await scaCodes.sendSms(platformId, to, `Your payment authorization code is ${code}`, 'SCA_PAYMENT');
}

function refusal(result: Exclude<scaCodes.Verification, { ok: true }>, quoteId: string): DomainError {
  switch (result.reason) {
    case 'WRONG':
      return new DomainError('INVALID_INPUT', 'The authorization code is wrong', { attemptsLeft: result.attemptsLeft });
    case 'EXHAUSTED':
      return new DomainError('RATE_LIMITED', 'Too many wrong codes: this challenge is locked', undefined, {
        retryAfterSeconds: 60,
      });
    case 'EXPIRED':
      return new DomainError('INVALID_INPUT', 'The challenge expired; create a new quote');
    case 'NONE':
      return new DomainError(
        'CONFLICT',
        `Quote ${quoteId} has no authorization code outstanding; request that a new code be sent`,
      );
  }
}

export interface Proof {
  code?: string | null;
  passkeyAssertion?: Record<string, unknown> | null;
  origin?: string | null;
}

const noChallenge = (quoteId: string) =>
  new DomainError('CONFLICT', `Quote ${quoteId} has no pending Strong Customer Authentication challenge`);

/**
 * The challenge a new quote carries: SMS_OTP (the default; needs the phone on file), or PASSKEY
 * when requested and the customer has one enrolled, over a challenge linked to `linking`.
 */
export async function challengeFor(
  customer: { id: string; phoneNumber: string | null },
  requested: string | undefined,
  expiresAt: Date,
  linking: Record<string, string>,
  tx: Tx,
): Promise<ScaState> {
  const base = { id: newId('Challenge'), expiresAt: expiresAt.toISOString(), purpose: 'PAYOUT' };
  if (requested === 'PASSKEY') {
    const pk = await passkeyChallenge(customer.id, JSON.stringify(linking), tx);
    if (!pk)
      throw fieldError(
        'scaFactor',
        'the customer has no PASSKEY factor enrolled for Strong Customer Authentication; use SMS_OTP',
        { enum: ['SMS_OTP'] },
      );
    return {
      ...base,
      factor: 'PASSKEY',
      availableFactors: ['PASSKEY'],
      passkeyChallenge: pk.challenge,
      passkeyAssertionOptions: pk.options,
    };
  }
  if (!customer.phoneNumber)
    throw new DomainError(
      'USER_NOT_READY',
      'Strong Customer Authentication by SMS needs the customer phone number on file',
    );
  return { ...base, factor: 'SMS_OTP', availableFactors: ['SMS_OTP'] };
}

export async function authorize(platformId: string, quoteId: string, proof: Proof) {
  const read = await repo.findById(platformId, quoteId, db());
  if (!read) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
  const pending = read.scaChallenge as ScaState | null;
  if (!pending || read.status !== 'PENDING_AUTHORIZATION') throw noChallenge(quoteId);
  const passkey = pending.factor === 'PASSKEY';
  if (!passkey && !proof.code) throw fieldError('code', 'code is required to satisfy an SMS_OTP challenge');
  if (sessionRequiredForPayments() && read.customerId) await requireSession(read.customerId);
  if (new Date(pending.expiresAt) <= now())
    throw new DomainError('INVALID_INPUT', 'The challenge expired; create a new quote');
  // A passkey assertion is checked before the quote is locked (it is not a database step); the
  // guarded move below lets only one authorization through.
  if (passkey) await provePasskey(read.customerId!, pending.passkeyChallenge!, proof);
  const outcome = await transaction(async (tx) => {
    const quote = await repo.lock(platformId, quoteId, tx);
    if (!quote) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
    const sca = quote.scaChallenge as ScaState | null;
    if (!sca || quote.status !== 'PENDING_AUTHORIZATION' || sca.id !== pending.id) throw noChallenge(quoteId);
    if (new Date(sca.expiresAt) <= now())
      throw new DomainError('INVALID_INPUT', 'The challenge expired; create a new quote');
    if (!passkey) {
      // A refusal is returned, not thrown: the counted attempt must commit.
      const result = await scaCodes.verify(scaCodes.QUOTE_CODES, { subject: quoteId, code: proof.code! }, tx);
      if (!result.ok) return { error: refusal(result, quoteId) };
    }
    const at = now();
    const scaChallenge = { ...sca, authorizedAt: at.toISOString() };
    await repo.move(quoteId, 'authorize', { scaChallenge: scaChallenge as object, updatedAt: at }, tx);
    const moved = await txRepo.transition(quote.transactionId, 'authorize', { updatedAt: at }, tx);
    if (moved) await recordEvent(tx, platformId, 'OUTGOING_PAYMENT.PENDING', toTransaction(moved));
    return {
      quote: toQuote({
        ...quote,
        status: 'PENDING',
        scaChallenge: scaChallenge as repo.QuoteRow['scaChallenge'],
        updatedAt: at,
      }),
    };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.quote;
}

export async function resend(platformId: string, quoteId: string) {
  const sent = await transaction(async (tx) => {
    const quote = await repo.lock(platformId, quoteId, tx);
    if (!quote) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
    const sca = quote.scaChallenge as ScaState | null;
    if (!sca || quote.status !== 'PENDING_AUTHORIZATION') throw noChallenge(quoteId);
    if (sca.factor !== 'SMS_OTP')
      throw new DomainError('CONFLICT', `Quote ${quoteId} has a ${sca.factor} challenge: there is no code to re-send`);
    // Refused with 429 and Retry-After within 30 s of the previous code.
    const issued = await issueScaCode(tx, platformId, quoteId, new Date(sca.expiresAt));
    const customer = quote.customerId ? await customers.findById(platformId, quote.customerId, tx) : null;
    return { to: customer?.phoneNumber ?? null, code: issued.code };
  });
  if (sent.to) await sendScaCode(platformId, sent.to, sent.code);
}
