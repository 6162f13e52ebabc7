import { DomainError } from '../../core/errors';
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

export function sandboxCounterparty(uma: UmaAddress): SandboxCounterparty | null {
  return uma.domain === sandboxUmaDomain() ? (SANDBOX_USERS[uma.user] ?? null) : null;
}
