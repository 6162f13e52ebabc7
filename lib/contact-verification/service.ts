import { now } from '../core/clock';
import { transaction, db } from '../core/db';
import { DomainError, conflict, fieldError, notFound } from '../core/errors';
import { sendMessage } from '../notify/sender';
import * as customersRepo from '../customers/repository';
import { present, type Customer } from '../customers/presenter';
import { requiresContactVerification } from '../customers/regions';
import { sha256Hex } from '../core/crypto/secrets';
import * as codes from '../codes/service';

// Contact verification: customers whose jurisdiction requires it prove their email and phone with
// a one-time code (lib/codes). Sending issues a code bound to the exact address it went to and
// delivers it after the transaction commits; confirming with it marks the channel VERIFIED.
export type Channel = 'EMAIL' | 'PHONE';
export const CODE_TTL_SECONDS = 10 * 60;
export const RESEND_COOLDOWN_SECONDS = 60;
export const MAX_SENDS_PER_HOUR = 5;
export const MAX_WRONG_ATTEMPTS = 5;
/** The reference: "In sandbox, no email is sent and the code is always `123456`". */
export const SANDBOX_CODE = '123456';

const purpose = (name: string): codes.CodePurpose => ({
  name,
  ttlSeconds: CODE_TTL_SECONDS,
  maxAttempts: MAX_WRONG_ATTEMPTS,
  // The cooldown is per address: a customer who corrects a typo gets a code for the new one at once.
  resend: { afterSeconds: RESEND_COOLDOWN_SECONDS, maxPerHour: MAX_SENDS_PER_HOUR, perBinding: true },
  sandbox: { code: SANDBOX_CODE },
});
const PURPOSES: Record<Channel, codes.CodePurpose> = {
  EMAIL: purpose('CONTACT_EMAIL'),
  PHONE: purpose('CONTACT_PHONE'),
};

/** What a code is bound to: the exact email or phone number it was sent to (never stored in clear). */
export function targetHash(contact: string): string {
  return sha256Hex(`contact:${contact}`);
}

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
// (the customer's verification state does not allow it now), so a resend inside the limits
// (lib/codes answers 429 RATE_LIMITED) is answered 409 CONFLICT here, with the same Retry-After.
function tooSoon(label: string, refusal: DomainError): DomainError {
  const wait = Number(refusal.details?.retryAfterSeconds ?? 1);
  return new DomainError(
    'CONFLICT',
    `A ${label} verification code was sent recently; request a new one in ${wait} s`,
    { retryAfterSeconds: wait },
    { retryAfterSeconds: wait },
  );
}

export async function send(platformId: string, customerId: string, channel: Channel): Promise<void> {
  const { label, sender } = CHANNEL[channel];
  contactToVerify(await customersRepo.findById(platformId, customerId, db()), customerId, channel); // refuse early
  const issued = await transaction(async (tx) => {
    const row = await customersRepo.lock(platformId, customerId, tx);
    const contact = contactToVerify(row, customerId, channel);
    try {
      const code = await codes.issue(tx, PURPOSES[channel], {
        platformId,
        subject: customerId,
        binding: targetHash(contact),
      });
      return { ...code, contact };
    } catch (err) {
      throw err instanceof DomainError && err.code === 'RATE_LIMITED' ? tooSoon(label, err) : err;
    }
  });
  // Delivered only once the code exists: a message never carries a code that was rolled back.
  try {
    await sendMessage({
      platformId,
      channel: sender,
      to: issued.contact,
      ...(channel === 'EMAIL' ? { subject: 'Your verification code' } : {}),
      text: `Your verification code is ${issued.code}. It expires in ${CODE_TTL_SECONDS / 60} minutes. If you did not ask for it, ignore this message.`,
      purpose: 'CONTACT_VERIFICATION',
    });
  } catch (err) {
    await codes.discard(issued.id);
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
  const { key, label } = CHANNEL[channel];
  contactToVerify(await customersRepo.findById(platformId, customerId, db()), customerId, channel);
  if (!/^\d{6}$/.test(code)) throw badCode('must be the 6-digit code that was sent');
  const noCode = `No verification code is pending for this ${label} (none was sent, or it was used, replaced or locked after too many wrong attempts); request a new code be sent to it`;

  const outcome = await transaction<Outcome>(async (tx) => {
    const row = await customersRepo.lock(platformId, customerId, tx);
    const current = contactToVerify(row, customerId, channel);
    // Bound to the address as it is now: a code sent to an earlier address finds nothing.
    const result = await codes.verify(
      PURPOSES[channel],
      { subject: customerId, binding: targetHash(current), code },
      tx,
    );
    if (!result.ok) {
      if (result.reason === 'EXPIRED')
        return {
          refused: `The verification code has expired; request a new code be sent to the ${label}`,
        };
      if (result.reason !== 'WRONG') return { refused: noCode };
      return {
        refused:
          result.attemptsLeft === 0
            ? `The verification code is wrong; after ${MAX_WRONG_ATTEMPTS} wrong attempts it no longer works: request a new one`
            : `The verification code is wrong; ${result.attemptsLeft} attempt(s) left`,
      };
    }
    const at = now();
    const state = { ...((row!.contactVerification ?? {}) as Record<string, string>), [key]: 'VERIFIED' };
    const updated = await customersRepo.setContactVerification(customerId, state, at, tx);
    return { verified: (await present(platformId, [updated], tx))[0] };
  });
  // Refusals are returned, not thrown, inside the transaction so a wrong attempt stays counted.
  if ('refused' in outcome) throw badCode(outcome.refused);
  return outcome.verified;
}
