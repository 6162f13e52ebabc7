import { now } from '../core/clock';
import type { Tx } from '../core/db';
import * as codes from '../codes/service';
import { sendMessage } from '../notify/sender';

// The SMS_OTP codes of Strong Customer Authentication, on the one one-time-code mechanism
// (lib/codes): a quote's payment authorization, a beneficiary trust change and an SCA login each
// issue a code for their subject, capped in attempts atomically and throttled on re-issue (429
// RATE_LIMITED with Retry-After). In sandbox the code is the reference's 123456.
export const SANDBOX_CODE = '123456';

/** A quote's code (subject: the quote); lives as long as the quote's challenge. */
export const QUOTE_CODES: codes.CodePurpose = {
  name: 'QUOTE_SCA',
  ttlSeconds: 120, // replaced by the challenge's own expiry at each issue
  maxAttempts: 5,
  resend: { afterSeconds: 30 },
  sandbox: { code: SANDBOX_CODE },
};

/** A beneficiary trust change (subject: the external account, bound to the challenge). A new start
 * replaces the outstanding challenge at once, but at most 10 codes an hour go out. 000000, which
 * this service documented before, is still accepted in sandbox. */
export const TRUST_CODES: codes.CodePurpose = {
  name: 'BENEFICIARY_TRUST',
  ttlSeconds: 5 * 60,
  maxAttempts: 5,
  resend: { afterSeconds: 0, maxPerHour: 10 },
  sandbox: { code: SANDBOX_CODE, alsoAccepted: ['000000'] },
};

/** An SCA login by SMS_OTP (subject: the customer, bound to the login challenge). */
export const LOGIN_CODES: codes.CodePurpose = {
  name: 'SCA_LOGIN',
  ttlSeconds: 5 * 60,
  maxAttempts: 5,
  resend: { afterSeconds: 30, maxPerHour: 10 },
  sandbox: { code: SANDBOX_CODE },
};

export type Verification = codes.Verification;
export type IssueRequest = codes.IssueRequest;
export const { issue, verify, discard, retire, rateLimited } = codes;

/** A code valid until `expiresAt` (a challenge's own expiry). */
export function issueUntil(tx: Tx, purpose: codes.CodePurpose, req: IssueRequest, expiresAt: Date) {
  const ttlSeconds = Math.max(1, Math.ceil((expiresAt.getTime() - now().getTime()) / 1000));
  return codes.issue(tx, purpose, { ...req, ttlSeconds });
}

export type SmsPurpose = 'SCA_PAYMENT' | 'SCA_TRUST_BENEFICIARY' | 'SCA_UNTRUST_BENEFICIARY' | 'SCA_LOGIN';

/** Delivers a code by SMS; called after the transaction that issued it commits. */
export async function sendSms(platformId: string, to: string, text: string, purpose: SmsPurpose): Promise<void> {
  await sendMessage({ platformId, channel: 'SMS', to, text, purpose });
}
