import { effect } from '../core/idempotency';
import { randomBytes } from 'node:crypto';
import { now } from '../core/clock';
import { currencyAmount } from '../core/currencies';
import * as customers from '../customers/repository';
import { transaction, db } from '../core/db';
import { recordEvent } from '../events/outbox';
import { DomainError, fieldError, notFound } from '../core/errors';
import { newId } from '../core/ids';
import * as platforms from '../platform/repository';
import { settingsOf } from '../platform/settings';
import * as repo from './repository';
import type { InvitationCreate } from './schema';

// UMA invitations. A platform creates one for one of its customers (the inviter); the link is
// shared; a customer of any platform claims it with their own UMA address, which the creating
// platform learns from the INVITATION.CLAIMED webhook and then sends `amountToSend` itself.
//
// Configured: a platform may create invitations once it has both an UMA domain (the invitation
// link lives there: https://<umaDomain>/i/<code>) and a webhook endpoint (PATCH /config), because
// the reference makes the INVITATION.CLAIMED webhook the only way the inviter's platform learns of
// a claim and acts on it. Without them: INVITATIONS_NOT_CONFIGURED.
//
// Who may do what: any platform may read and claim by code (the invitee is usually elsewhere;
// codes are 96 random bits, so knowing one is what grants it); only the creating platform may
// cancel (403 otherwise).
const UMA_ADDRESS = /^\$[a-z0-9][a-z0-9._-]{0,63}@([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function umaAddress(field: string, value: string): string {
  const v = value.trim().toLowerCase();
  if (!UMA_ADDRESS.test(v)) {
    throw new DomainError(
      'INVALID_UMA_ADDRESS',
      `${field} ${JSON.stringify(value)} is not an UMA address such as $alice@pay.example.com`,
      {
        errors: [{ field, message: 'must look like $name@domain', constraint: { pattern: UMA_ADDRESS.source } }],
      },
    );
  }
  return v;
}

/** The active customer of the platform holding this UMA address. */
async function customerWith(platformId: string, field: string, uma: string) {
  const row = await customers.findActiveByUmaAddress(platformId, uma);
  if (!row) {
    throw new DomainError('INVALID_UMA_ADDRESS', `${uma} is not the UMA address of a customer of this platform`, {
      errors: [{ field, message: 'is not the UMA address of a customer of this platform' }],
    });
  }
  return row;
}

function isExpired(row: repo.InvitationRow, at: Date): boolean {
  return row.status === 'PENDING' && row.expiresAt !== null && row.expiresAt <= at;
}

export function present(row: repo.InvitationRow, at: Date) {
  return {
    code: row.code,
    createdAt: row.createdAt,
    ...(row.claimedAt ? { claimedAt: row.claimedAt } : {}),
    url: row.url,
    ...(row.expiresAt ? { expiresAt: row.expiresAt } : {}),
    inviterUma: row.inviterUma,
    ...(row.inviteeUma ? { inviteeUma: row.inviteeUma } : {}),
    status: isExpired(row, at) ? 'EXPIRED' : row.status,
    ...(row.firstName ? { firstName: row.firstName } : {}),
    ...(row.amountToSend !== null && row.amountCurrency
      ? { amountToSend: currencyAmount(row.amountToSend, row.amountCurrency) }
      : {}),
  };
}

/** The error for an invitation that can no longer move, by its current state. */
function notPending(row: repo.InvitationRow, at: Date): DomainError {
  if (row.status === 'CLAIMED')
    return new DomainError('INVITATION_ALREADY_CLAIMED', `Invitation ${row.code} has already been claimed`);
  if (row.status === 'CANCELLED')
    return new DomainError('INVITATION_CANCELLED', `Invitation ${row.code} has been cancelled`);
  if (isExpired(row, at))
    return new DomainError('INVALID_INPUT', `Invitation ${row.code} expired at ${row.expiresAt!.toISOString()}`, {
      reason: 'INVITATION_EXPIRED',
    });
  return new DomainError('CONFLICT', `Invitation ${row.code} changed while this request ran; retry`);
}

async function find(code: string) {
  const row = await repo.findByCode(code, db());
  if (!row) throw notFound('INVITATION_NOT_FOUND', `Invitation ${code}`);
  return row;
}

export async function create(platformId: string, input: InvitationCreate) {
  const platform = await platforms.findById(platformId, db());
  if (!platform) throw notFound('REFERENCE_NOT_FOUND', 'Platform');
  if (!platform.umaDomain || !platform.webhookEndpoint) {
    throw new DomainError(
      'INVITATIONS_NOT_CONFIGURED',
      'Invitations are not configured: set umaDomain and webhookEndpoint in the platform configuration (claims are announced by the INVITATION.CLAIMED webhook)',
      {
        missing: [
          ...(platform.umaDomain ? [] : ['umaDomain']),
          ...(platform.webhookEndpoint ? [] : ['webhookEndpoint']),
        ],
      },
    );
  }
  const inviter = await customerWith(platformId, 'inviterUma', umaAddress('inviterUma', input.inviterUma));
  const at = now();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= at)
    throw fieldError('expiresAt', `expiresAt must be in the future (now is ${at.toISOString()})`);
  // "In the smallest unit of the customer's currency": the inviter's first currency.
  const amountCurrency =
    input.amountToSend === undefined
      ? null
      : (inviter.currencies[0] ?? (await settingsOf(platformId, db())).currencyCodes[0] ?? 'USD');
  const code = randomBytes(12).toString('base64url');
  return effect(async (tx) => {
    const row = await repo.insert(
      {
        id: newId('Invitation'),
        code,
        platformId,
        inviterCustomerId: inviter.id,
        inviterUma: inviter.umaAddress,
        firstName: input.firstName ?? null,
        amountToSend: input.amountToSend ?? null,
        amountCurrency,
        url: `https://${platform.umaDomain}/i/${code}`,
        status: 'PENDING',
        expiresAt,
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    return present(row, at);
  });
}

export async function get(code: string) {
  return present(await find(code), now());
}

export async function claim(platformId: string, code: string, inviteeUmaInput: string) {
  const inviteeUma = umaAddress('inviteeUma', inviteeUmaInput);
  const current = await find(code);
  const invitee = await customerWith(platformId, 'inviteeUma', inviteeUma);
  if (invitee.umaAddress.toLowerCase() === current.inviterUma.toLowerCase()) {
    throw new DomainError('INVALID_UMA_ADDRESS', 'The inviter cannot claim their own invitation', {
      errors: [{ field: 'inviteeUma', message: 'is the inviter' }],
    });
  }
  const at = now();
  if (current.status !== 'PENDING' || isExpired(current, at)) throw notPending(current, at);
  return transaction(async (tx) => {
    const moved = await repo.claim(
      code,
      { inviteeUma: invitee.umaAddress, inviteePlatformId: platformId, inviteeCustomerId: invitee.id },
      at,
      tx,
    );
    const row = (await repo.findByCode(code, tx))!;
    if (!moved) throw notPending(row, at);
    const shown = present(row, at);
    // The creating platform is the one told, in the same transaction as the claim.
    await recordEvent(tx, row.platformId, 'INVITATION.CLAIMED', shown);
    return shown;
  });
}

export async function cancel(platformId: string, code: string) {
  const current = await find(code);
  if (current.platformId !== platformId)
    throw new DomainError('FORBIDDEN', 'Only the platform that created the invitation can cancel it');
  const at = now();
  if (current.status !== 'PENDING' || isExpired(current, at)) throw notPending(current, at);
  return transaction(async (tx) => {
    const moved = await repo.cancel(code, platformId, at, tx);
    const row = (await repo.findByCode(code, tx))!;
    if (!moved) throw notPending(row, at);
    return present(row, at);
  });
}
