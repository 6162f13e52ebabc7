import { now } from '../core/clock';
import type { Tx } from '../core/db';
import { DomainError, conflict, invalidInput } from '../core/errors';
import {
  acceptSignedRetry,
  bindRequest,
  issueChallenge,
  retryHeaders,
  type Challenge,
  type SignedRequest,
} from './signed-retry';
import * as repo from './repository';

// A customer's email (phone number) is also the address of the EMAIL_OTP (SMS_OTP) credentials
// of the customer's embedded wallets. Changing it changes how the wallet holder signs in, so the
// wallet holder authorizes it: the first PATCH gets a 202 binding the update fields and the set
// of tied credentials; the signed retry (a session of one of the tied wallets) changes the
// customer contact and every tied credential together, in the customer update's transaction.
export interface ContactChange {
  current: { email: string | null; phoneNumber: string | null };
  next: { email?: string; phoneNumber?: string };
}

export type ContactGuard = { challenge: Challenge } | { synced: number } | null;

const same = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

/**
 * Call inside the customer update transaction, with the customer row locked and the rest of the
 * update validated, just before writing. Returns null when no tied credential is affected (a
 * plain update), a challenge to answer 202 with, or — on a valid signed retry — after syncing
 * the credentials, so the caller writes the customer and commits.
 */
export async function guardContactChange(
  tx: Tx,
  opts: { platformId: string; customerId: string; change: ContactChange; request: SignedRequest },
): Promise<ContactGuard> {
  const { platformId, customerId, change } = opts;
  const emailChanges = change.next.email !== undefined && !same(change.next.email, change.current.email);
  const phoneChanges = change.next.phoneNumber !== undefined && change.next.phoneNumber !== change.current.phoneNumber;
  const tiedEmail = emailChanges
    ? await repo.activeOtpCredentialsOfCustomer(platformId, customerId, 'EMAIL_OTP', tx)
    : [];
  const tiedPhone = phoneChanges
    ? await repo.activeOtpCredentialsOfCustomer(platformId, customerId, 'SMS_OTP', tx)
    : [];
  if (!tiedEmail.length && !tiedPhone.length) return null;
  if (emailChanges && phoneChanges) {
    throw invalidInput(
      'email and phoneNumber are tied to embedded-wallet credentials: change them in separate PATCH calls',
      [{ field: 'phoneNumber', message: 'change it in a separate request from email' }],
    );
  }
  const type = tiedEmail.length ? 'EMAIL_OTP' : 'SMS_OTP';
  const tied = tiedEmail.length ? tiedEmail : tiedPhone;
  const value = (type === 'EMAIL_OTP' ? change.next.email : change.next.phoneNumber)!;
  const tiedIds = tied.map((t) => t.id).sort();
  await refuseTakenContact(tx, platformId, type, value, tiedIds);

  const binding = bindRequest(opts.request);
  const headers = retryHeaders(opts.request);
  if (!headers) {
    const challenge = await issueChallenge(tx, {
      platformId,
      kind: 'CUSTOMER_CONTACT_UPDATE',
      binding,
      accountIds: [...new Set(tied.map((t) => t.accountId))].sort(),
      context: { type, credentialIds: tiedIds },
      activity:
        type === 'EMAIL_OTP'
          ? { type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL', parameters: { userEmail: value, userId: customerId } }
          : {
              type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
              parameters: { userId: customerId, userPhoneNumber: value },
            },
    });
    return { challenge };
  }
  const signed = await acceptSignedRetry(tx, { platformId, kind: 'CUSTOMER_CONTACT_UPDATE', binding, headers });
  const bound = (signed.context.credentialIds as string[]) ?? [];
  if (signed.context.type !== type || bound.length !== tiedIds.length || bound.some((id, i) => id !== tiedIds[i])) {
    if (type === 'EMAIL_OTP') {
      throw new DomainError(
        'EMAIL_OTP_CREDENTIAL_SET_CHANGED',
        'The EMAIL_OTP credentials tied to this customer changed after the challenge was issued; start again',
        {
          boundCredentialIds: bound,
          currentCredentialIds: tiedIds,
        },
      );
    }
    throw conflict(
      'The SMS_OTP credentials tied to this customer changed after the challenge was issued; start again',
      { boundCredentialIds: bound, currentCredentialIds: tiedIds },
    );
  }
  const updated = await repo.updateCredentialContact(
    tiedIds,
    type === 'EMAIL_OTP' ? { email: value } : { phoneNumber: value },
    now(),
    tx,
  );
  if (updated !== tiedIds.length) {
    throw new DomainError(
      'EMAIL_OTP_CREDENTIAL_SYNC_FAILED',
      'Not every tied credential could be updated; the customer was not changed',
    );
  }
  return { synced: updated };
}

async function refuseTakenContact(
  tx: Tx,
  platformId: string,
  type: 'EMAIL_OTP' | 'SMS_OTP',
  value: string,
  tiedIds: string[],
): Promise<void> {
  if (type === 'EMAIL_OTP') {
    if ((await repo.emailOtpCredentialsWithEmail(platformId, value, tiedIds, tx)).length) {
      throw new DomainError(
        'EMAIL_OTP_EMAIL_ALREADY_EXISTS',
        `${value} is already the email of an EMAIL_OTP credential`,
      );
    }
  } else if ((await repo.smsOtpCredentialsWithPhone(platformId, value, tiedIds, tx)).length) {
    throw conflict(`${value} is already the phone number of an SMS_OTP credential`);
  }
}
