import { DomainError } from '../../core/errors';
import { isSandbox } from '../../core/mode';
import { sandboxUmaDomain } from '../../platform/service';

// UMA addresses: `$user@domain`. The user part is letters, digits and . _ - + (case-insensitive).
const UMA = /^\$([a-z0-9._+-]{1,64})@([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+)$/i;

export interface UmaAddress {
  address: string;
  user: string;
  domain: string;
}

export function parseUma(value: string): UmaAddress | null {
  const m = UMA.exec(value.trim());
  if (!m) return null;
  const user = m[1].toLowerCase();
  const domain = m[2].toLowerCase();
  return { address: `$${user}@${domain}`, user, domain };
}

export function requireUma(value: string, field = 'umaAddress'): UmaAddress {
  const parsed = parseUma(value);
  if (!parsed) {
    throw new DomainError('INVALID_UMA_ADDRESS', `${value} is not a valid UMA address ($user@domain)`, {
      errors: [{ field, message: 'must be a UMA address such as $alice@example.com' }],
    });
  }
  return parsed;
}

/** The sandbox counterparties of the specification, on the sandbox UMA domain. */
export interface SandboxCounterparty {
  currency: string;
  behaviour: 'SUCCESS' | 'LONG_PENDING' | 'COMPLIANCE_FAILED';
}

const SANDBOX_USERS: Record<string, SandboxCounterparty> = {
  'success.usd': { currency: 'USD', behaviour: 'SUCCESS' },
  'success.eur': { currency: 'EUR', behaviour: 'SUCCESS' },
  'success.mxn': { currency: 'MXN', behaviour: 'SUCCESS' },
  'pending.long.usd': { currency: 'USD', behaviour: 'LONG_PENDING' },
  'fail.compliance.usd': { currency: 'USD', behaviour: 'COMPLIANCE_FAILED' },
};

/**
 * The scripted counterparty at this address — in sandbox mode only. In production nobody answers
 * at these names (issue 25: production never pretends), so the address resolves like any other:
 * a customer of this service who holds it, or nobody.
 */
export function sandboxCounterparty(uma: UmaAddress): SandboxCounterparty | null {
  return isSandbox() && isSandboxCounterpartyAddress(uma) ? SANDBOX_USERS[uma.user] : null;
}

/** Whether the address names a sandbox counterparty, whatever the mode (to say why production refuses it). */
export function isSandboxCounterpartyAddress(uma: UmaAddress): boolean {
  // Own keys only: `$constructor@` must not find Object.prototype's.
  return uma.domain === sandboxUmaDomain() && Object.hasOwn(SANDBOX_USERS, uma.user);
}
