import { newId } from '../core/ids';
import { addSeconds, now } from '../core/clock';
import { transaction } from '../core/db';
import { DomainError, conflict, fieldError, notFound } from '../core/errors';
import { isSandbox } from '../core/mode';
import { sendMessage } from '../notify/sender';
import * as customersRepo from '../customers/repository';
import { present, type Customer } from '../customers/service';
import { requiresContactVerification } from '../customers/regions';
import { codeMatches, hashCode, randomCode, targetHash } from './codes';
import * as repo from './repository';
import type { Channel } from './repository';

// Contact verification: customers whose jurisdiction requires it prove their email and phone with
// a one-time code. Sending issues a code (stored hashed, bound to the exact address it went to)
// and delivers it after the transaction commits; confirming with it marks the channel VERIFIED.
export type { Channel };
export const CODE_TTL_SECONDS = 10 * 60;
export const RESEND_COOLDOWN_SECONDS = 60;
export const MAX_SENDS_PER_HOUR = 5;
export const MAX_WRONG_ATTEMPTS = 5;
/** The reference: "In sandbox, no email is sent and the code is always `123456`". */
export const SANDBOX_CODE = '123456';

const CHANNEL = {
  EMAIL: { key: 'email', label: 'email', path: 'verify-email', sender: 'EMAIL' },
  PHONE: { key: 'phone', label: 'phone number', path: 'verify-phone', sender: 'SMS' },
} as const;

type CustomerRow = customersRepo.CustomerRow;

/** The contact to verify on this channel; 404/409 when there is nothing to verify. */
function contactToVerify(row: CustomerRow | null, customerId: string, channel: Channel): string {
  if (!row || row.deletedAt) throw notFound('USER_NOT_FOUND', `Customer ${customerId}`);
  const { key, label } = CHANNEL[channel];
  if (!requiresContactVerification(row.region)) {
    throw conflict(
      `Customer ${customerId} does not need contact verification: its region (${row.region ?? 'none'}) does not require it`,
    );
  }
  const status = ((row.contactVerification ?? {}) as Record<string, string>)[key];
  const contact = channel === 'EMAIL' ? row.email : row.phoneNumber;
  if (!status || !contact) throw conflict(`Customer ${customerId} has no ${label} that needs verification`);
  if (status === 'VERIFIED') throw conflict(`The ${label} of customer ${customerId} is already verified`);
  return contact;
}

// The reference documents no 429 for these operations. Its documented refusal of a send is 409
// (the customer's verification state does not allow it now), so a resend inside the limits is
// answered 409 CONFLICT as well, with Retry-After saying when a new code may be requested.
function tooSoon(label: string, seconds: number): DomainError {
  const wait = Math.max(1, Math.ceil(seconds));
  return new DomainError(
    'CONFLICT',
    `A ${label} verification code was sent recently; request a new one in ${wait} s`,
    { retryAfterSeconds: wait },
    { 'retry-after': String(wait) },
  );
}

export async function send(platformId: string, customerId: string, channel: Channel): Promise<void> {
  const { label, sender } = CHANNEL[channel];
  contactToVerify(await customersRepo.findById(platformId, customerId), customerId, channel); // refuse early, before hashing
  const code = isSandbox() ? SANDBOX_CODE : randomCode();
  const codeHash = await hashCode(code);
  const issued = await transaction(async (tx) => {
    const row = await customersRepo.lock(platformId, customerId, tx);
    const contact = contactToVerify(row, customerId, channel);
    const at = now();
    const target = targetHash(contact);
    const recent = await repo.sentSince(customerId, channel, addSeconds(at, -3600), tx);
    const last = recent.filter((r) => r.targetHash === target).at(-1);
    if (last) {
      const wait = RESEND_COOLDOWN_SECONDS - (at.getTime() - last.createdAt.getTime()) / 1000;
      if (wait > 0) throw tooSoon(label, wait);
    }
    if (recent.length >= MAX_SENDS_PER_HOUR)
      throw tooSoon(label, 3600 - (at.getTime() - recent[0].createdAt.getTime()) / 1000);
    await repo.supersedeActive(customerId, channel, tx);
    const id = newId('ContactVerificationCode');
    await repo.insert(
      {
        id,
        platformId,
        customerId,
        channel,
        targetHash: target,
        codeHash,
        createdAt: at,
        expiresAt: addSeconds(at, CODE_TTL_SECONDS),
      },
      tx,
    );
    return { id, contact };
  });
  // Delivered only once the code exists: a message never carries a code that was rolled back.
  try {
    await sendMessage({
      platformId,
      channel: sender,
      to: issued.contact,
      ...(channel === 'EMAIL' ? { subject: 'Your verification code' } : {}),
      text: `Your verification code is ${code}. It expires in ${CODE_TTL_SECONDS / 60} minutes. If you did not ask for it, ignore this message.`,
      purpose: 'CONTACT_VERIFICATION',
    });
  } catch (err) {
    await repo.discard(issued.id);
    throw err;
  }
}

const badCode = (message: string) => fieldError('code', message);

type Outcome = { verified: Customer } | { refused: string };

export async function confirm(
  platformId: string,
  customerId: string,
  channel: Channel,
  code: string,
): Promise<Customer> {
  const { key, label, path } = CHANNEL[channel];
  const contact = contactToVerify(await customersRepo.findById(platformId, customerId), customerId, channel);
  if (!/^\d{6}$/.test(code)) throw badCode('must be the 6-digit code that was sent');
  const noCode = `No verification code is pending for this ${label} (none was sent, or it was used, replaced or locked after too many wrong attempts); request one with POST /customers/${customerId}/${path}`;
  const candidate = await repo.findActive(customerId, channel);
  if (!candidate || candidate.targetHash !== targetHash(contact)) throw badCode(noCode);
  // scrypt runs before the transaction: a transaction must not wait on anything but the database.
  const matches = await codeMatches(code, candidate.codeHash);

  const outcome = await transaction<Outcome>(async (tx) => {
    const row = await customersRepo.lock(platformId, customerId, tx);
    const current = contactToVerify(row, customerId, channel);
    const c = await repo.lock(candidate.id, tx);
    const at = now();
    if (!c || c.state !== 'ACTIVE' || c.targetHash !== targetHash(current)) return { refused: noCode };
    if (c.expiresAt <= at)
      return {
        refused: `The verification code has expired; request a new one with POST /customers/${customerId}/${path}`,
      };
    if (!matches) {
      const attempts = c.attempts + 1;
      const exhausted = attempts >= MAX_WRONG_ATTEMPTS;
      await repo.recordWrongAttempt(c.id, attempts, exhausted, tx);
      return {
        refused: exhausted
          ? `The verification code is wrong; after ${MAX_WRONG_ATTEMPTS} wrong attempts it no longer works: request a new one`
          : `The verification code is wrong; ${MAX_WRONG_ATTEMPTS - attempts} attempt(s) left`,
      };
    }
    await repo.markUsed(c.id, at, tx);
    const state = { ...((row!.contactVerification ?? {}) as Record<string, string>), [key]: 'VERIFIED' };
    const updated = await customersRepo.setContactVerification(customerId, state, at, tx);
    return { verified: (await present(platformId, [updated], tx))[0] };
  });
  // Refusals are returned, not thrown, inside the transaction so a wrong attempt stays counted.
  if ('refused' in outcome) throw badCode(outcome.refused);
  return outcome.verified;
}
