import { createHash, randomBytes } from 'node:crypto';
import { now, addSeconds } from '../core/clock';
import { effect } from '../core/idempotency';
import { publicBaseUrl } from '../core/mode';
import { conflict, invalidInput } from '../core/errors';
import { kycProvider } from '../customers/kyc-provider';
import * as repo from './repository';
import { lockCustomer, unverifiedChannels } from './service';

// Hosted KYC/KYB links: a single-use URL the customer opens to complete verification. Issuing
// one changes no status. Only the SHA-256 of the link's token is stored; the hosted page looks
// the link up by hashing the token it was opened with.
export const KYC_LINK_LIFETIME_SECONDS = 24 * 60 * 60;

export async function createKycLink(platformId: string, customerId: string, redirectUri: string | undefined) {
  return effect(async (tx) => {
    const customer = await lockCustomer(platformId, customerId, tx);
    const channels = unverifiedChannels(customer);
    if (channels.length) {
      throw conflict(
        `Customer ${customerId} must verify its ${channels.join(' and ')} before a KYC link can be generated`,
        {
          contactVerification: customer.contactVerification,
        },
      );
    }
    const status = (customer.customerType === 'INDIVIDUAL' ? customer.kycStatus : customer.kybStatus) ?? 'UNVERIFIED';
    if (status === 'APPROVED' || status === 'REJECTED') {
      throw invalidInput(
        `Customer ${customerId} was already ${status === 'APPROVED' ? 'approved' : 'rejected'}; there is nothing left to verify`,
      );
    }
    const token = randomBytes(32).toString('base64url');
    const at = now();
    const expiresAt = addSeconds(at, KYC_LINK_LIFETIME_SECONDS);
    await repo.insertKycLink(
      {
        tokenHash: createHash('sha256').update(token).digest('hex'),
        platformId,
        customerId,
        redirectUri: redirectUri ?? null,
        expiresAt,
        createdAt: at,
      },
      tx,
    );
    const url = new URL(`${publicBaseUrl()}/kyc/${token}`);
    if (redirectUri) url.searchParams.set('redirect_uri', redirectUri);
    return { kycUrl: url.toString(), expiresAt, provider: kycProvider.get().linkProvider };
  });
}
