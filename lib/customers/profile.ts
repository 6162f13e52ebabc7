import { randomBytes } from 'node:crypto';
import { db, type Tx } from '../core/db';
import { DomainError, conflict, fieldError } from '../core/errors';
import { publicBaseUrl } from '../core/mode';
import { settingsOf } from '../platform/settings';
import type { Profile } from './presenter';
import * as repo from './repository';
import type { CustomerCreate, CustomerUpdate } from './schema';

// Checks and normalisation of a customer's request fields shared by create and update: End User
// Terms consent, UMA address, currencies, the profile, and which unique value a refused insert hit.
export const END_USER_TERMS_VERSIONS = ['V1'];

export function endUserTerms() {
  const base = publicBaseUrl();
  return { version: END_USER_TERMS_VERSIONS[END_USER_TERMS_VERSIONS.length - 1], url: `${base}/legal/end-user-terms` };
}

/** Request fields stored in their own columns (or never stored), so not in the profile. */
const NOT_PROFILE = new Set([
  'customerType',
  'currencies',
  'email',
  'phoneNumber',
  'umaAddress',
  'endUserTermsConsent',
  'platformCustomerId',
  'region',
  'kycStatus',
  'kybStatus',
  'fullName',
  'identifier',
]);

export function profileOf(input: CustomerCreate | CustomerUpdate): Profile {
  return Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && !NOT_PROFILE.has(k)));
}

const UMA_USER = /^\$[a-z0-9][a-z0-9._-]{0,63}$/i;

/** `$user@domain` on the platform's UMA domain; a bare `$user` or `user` is completed with it. */
export function normalizeUma(input: string, domain: string): string {
  const at = input.lastIndexOf('@');
  let user = at >= 0 ? input.slice(0, at) : input;
  const host = at >= 0 ? input.slice(at + 1).toLowerCase() : domain;
  if (!user.startsWith('$')) user = `$${user}`;
  if (!UMA_USER.test(user))
    throw fieldError('umaAddress', 'umaAddress must look like $name@domain (letters, digits, dot, dash, underscore)', {
      pattern: '^\\$[a-z0-9][a-z0-9._-]{0,63}@domain$',
    });
  if (host !== domain) throw fieldError('umaAddress', `umaAddress must be on this platform's UMA domain ${domain}`);
  return `${user.toLowerCase()}@${host}`;
}

export function generatedUma(name: string | undefined, domain: string): string {
  const slug =
    (name ?? 'user')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '.')
      .replace(/^\.+|\.+$/g, '')
      .slice(0, 40) || 'user';
  return `$${slug}.${randomBytes(4).toString('hex')}@${domain}`;
}

export function checkTerms(consent: { termsVersion: string } | undefined) {
  if (consent && !END_USER_TERMS_VERSIONS.includes(consent.termsVersion)) {
    throw new DomainError(
      'END_USER_TERMS_VERSION_NOT_FOUND',
      `End User Terms version ${consent.termsVersion} is not supported; current is ${endUserTerms().version}`,
      {
        errors: [
          {
            field: 'endUserTermsConsent.termsVersion',
            message: `must be one of ${END_USER_TERMS_VERSIONS.join(', ')}`,
          },
        ],
      },
    );
  }
}

export async function checkCurrencies(platformId: string, currencies: string[] | undefined, tx: Tx): Promise<string[]> {
  const supported = (await settingsOf(platformId, tx)).currencyCodes;
  if (!currencies) return supported;
  for (const [i, c] of currencies.entries()) {
    if (!supported.includes(c)) {
      throw new DomainError(
        'INVALID_CURRENCY',
        `Currency ${c} is not supported by this platform (supported: ${supported.join(', ')})`,
        {
          errors: [{ field: `currencies[${i}]`, message: `must be one of ${supported.join(', ')}` }],
        },
      );
    }
  }
  return [...new Set(currencies)];
}

export async function explainUniqueViolation(
  platformId: string,
  platformCustomerId: string | undefined,
  umaAddress: string,
  exceptId: string | null,
): Promise<DomainError> {
  if (platformCustomerId && (await repo.findActiveByPlatformCustomerId(platformId, platformCustomerId, db()))) {
    return conflict(`An active customer with platformCustomerId ${platformCustomerId} already exists`);
  }
  if (await repo.umaAddressTaken(umaAddress, exceptId, db()))
    return new DomainError('UMA_ADDRESS_EXISTS', `UMA address ${umaAddress} is already taken`);
  return conflict('The customer conflicts with an existing customer');
}
