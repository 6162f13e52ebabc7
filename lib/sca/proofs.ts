import { createHash, randomBytes } from 'node:crypto';
import { fieldError, invalidInput } from '../core/errors';
import { proveTotp, storedPasskey } from './login';
import * as passkeys from './passkeys';
import * as repo from './repository';
import { db, type Tx } from '@/lib/core/db';

// Proofs for challenges carried by other resources (a quote's scaChallenge, a beneficiary trust
// change): the PASSKEY and TOTP factors. The WebAuthn challenge is dynamically linked: it is a hash over a random nonce
// and what the customer authorizes (the caller's `linking` text: the quote, amount, currency and
// payee), so an assertion authorizes that operation and no other.
export interface PasskeyChallenge {
  challenge: string;
  options: Record<string, unknown>;
}

/** A passkey challenge for the customer's enrolled passkey; null when none is enrolled. */
export async function passkeyChallenge(customerId: string, linking: string, tx: Tx): Promise<PasskeyChallenge | null> {
  const row = await repo.activeFactor(customerId, 'PASSKEY', tx);
  if (!row) return null;
  const linked = createHash('sha256').update(randomBytes(16)).update(linking).digest();
  const options = await passkeys.assertionOptions(storedPasskey(row), linked);
  return { challenge: options.challenge, options: options as unknown as Record<string, unknown> };
}

/** Verifies an assertion over `challenge` by the customer's passkey (400 when it does not verify). */
export async function provePasskey(
  customerId: string,
  challenge: string,
  proof: { passkeyAssertion?: Record<string, unknown> | null; origin?: string | null },
): Promise<void> {
  if (!proof.passkeyAssertion || !proof.origin)
    throw fieldError('passkeyAssertion', 'passkeyAssertion and origin are required to satisfy a PASSKEY challenge');
  const row = await repo.activeFactor(customerId, 'PASSKEY', db());
  if (!row) throw invalidInput('The customer no longer has a passkey enrolled: create a new quote');
  const counter = await passkeys.verifyAssertion(challenge, proof.origin, proof.passkeyAssertion, storedPasskey(row));
  if (!(await repo.advanceCounter(row.id, row.counter, counter, db())))
    throw invalidInput('The passkey was used concurrently; retry');
}

/** Whether the customer has an enrolled TOTP factor. */
export async function hasTotp(customerId: string): Promise<boolean> {
  return !!(await repo.activeFactor(customerId, 'TOTP', db()));
}

/** A code from the customer's authenticator app (or an unused recovery code); false without a TOTP factor. */
export async function proveTotpCode(customerId: string, code: string): Promise<boolean> {
  const row = await repo.activeFactor(customerId, 'TOTP', db());
  return !!row && (await proveTotp(row, code));
}
