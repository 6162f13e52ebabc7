import { newId } from '../core/ids';
import { now } from '../core/clock';
import { transaction, type Prisma, type Tx, db } from '../core/db';
import { DomainError, invalidInput, notFound } from '../core/errors';
import { pageOf } from '../core/list';
import { recordEvent } from '../events/outbox';
import * as customers from '../customers/repository';
import { present as presentCustomers } from '../customers/presenter';
import { statusEvent } from '../customers/kyc';
import * as owners from '../customers/beneficial-owners/repository';
import { decideOwners, markOwnersPending } from '../customers/beneficial-owners/service';
import * as documents from '../documents/repository';
import { kycProvider, type Decision } from '../customers/kyc-provider';
import { businessErrors, identityDocumentOf, individualErrors } from './requirements';
import * as repo from './repository';
import type { VerificationError, VerificationStatus } from './schema';

// Submitting customers for KYC (individuals) or KYB (businesses). A submission is checked for
// completeness first; the provider port then decides what a vendor would. The customer row is
// locked for the whole submission, so a customer's submissions, document and owner changes
// serialize, and the verification moves by conditional updates on its status.

export function toVerification(row: repo.VerificationRow) {
  return {
    id: row.id,
    customerId: row.customerId,
    verificationStatus: row.status as VerificationStatus,
    // JSONB keeps its own key order; errors are shown in the reference's field order.
    errors: (row.errors as VerificationError[]).map(({ resourceId, type, field, acceptedDocumentTypes, reason }) => ({
      resourceId,
      type,
      ...(field ? { field } : {}),
      ...(acceptedDocumentTypes ? { acceptedDocumentTypes } : {}),
      reason,
    })),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type Verification = ReturnType<typeof toVerification>;

/** Contact channels (email, phone) the customer still has to verify before KYC can begin. */
export function unverifiedChannels(customer: customers.CustomerRow): string[] {
  const cv = (customer.contactVerification ?? {}) as Record<string, string>;
  return Object.entries(cv)
    .filter(([, status]) => status !== 'VERIFIED')
    .map(([channel]) => channel);
}

export async function lockCustomer(platformId: string, customerId: string, tx: Tx): Promise<customers.CustomerRow> {
  const customer = await customers.lock(platformId, customerId, tx);
  if (!customer || customer.deletedAt) throw notFound('USER_NOT_FOUND', `Customer ${customerId}`);
  return customer;
}

const kindOf = (c: customers.CustomerRow) => (c.customerType === 'INDIVIDUAL' ? 'KYC' : 'KYB');
const statusOf = (c: customers.CustomerRow) =>
  (c.customerType === 'INDIVIDUAL' ? c.kycStatus : c.kybStatus) ?? 'UNVERIFIED';

interface Outcome {
  status: 'RESOLVE_ERRORS' | 'PENDING_MANUAL_REVIEW' | Decision;
  errors: VerificationError[];
}

async function evaluate(platformId: string, customer: customers.CustomerRow, tx: Tx): Promise<Outcome> {
  const provider = kycProvider.get();
  const docs = await documents.ofCustomer(platformId, customer.id, tx);
  if (customer.customerType === 'INDIVIDUAL') {
    const errors = individualErrors(customer, docs);
    if (errors.length) return { status: 'RESOLVE_ERRORS', errors };
    const outcome = provider.individualOutcome(customer.fullName!);
    if (outcome.status !== 'RESOLVE_ERRORS') return { status: outcome.status, errors: [] };
    const doc = identityDocumentOf(customer.id, docs)!;
    return {
      status: 'RESOLVE_ERRORS',
      errors: [
        {
          resourceId: doc.id,
          type: 'POOR_QUALITY_DOCUMENT',
          reason: 'The identity document is blurred or unreadable; replace the document with a readable copy',
        },
      ],
    };
  }
  const shortcut = provider.businessShortcut(customer.registrationNumber);
  if (shortcut) return { status: shortcut, errors: [] };
  const errors = businessErrors(customer, await owners.ofCustomers(platformId, [customer.id], tx), docs);
  return errors.length ? { status: 'RESOLVE_ERRORS', errors } : { status: 'PENDING_MANUAL_REVIEW', errors: [] };
}

/**
 * Carries a verification's new status over to its customer: under review the customer (and a
 * business's owners) are PENDING; a decision becomes the customer's status and decides the
 * owners. Records the verification's and the customer's webhooks.
 */
async function settle(
  platformId: string,
  customer: customers.CustomerRow,
  row: repo.VerificationRow,
  announce: boolean,
  tx: Tx,
) {
  const at = row.updatedAt;
  const status = row.status as Outcome['status'];
  if (announce) await recordEvent(tx, platformId, `VERIFICATION.${status}`, toVerification(row));
  if (status === 'RESOLVE_ERRORS') return;
  await documents.markSubmitted(platformId, customer.id, at, tx);
  const customerStatus = status === 'PENDING_MANUAL_REVIEW' ? 'PENDING' : status;
  if (customer.customerType === 'BUSINESS') {
    if (status === 'PENDING_MANUAL_REVIEW') await markOwnersPending(platformId, customer.id, at, tx);
    else await decideOwners(platformId, customer.id, status, at, tx);
  }
  if (statusOf(customer) === customerStatus) return;
  const kind = kindOf(customer);
  const updated = await customers.update(
    customer.id,
    { [kind === 'KYC' ? 'kycStatus' : 'kybStatus']: customerStatus, updatedAt: at },
    tx,
  );
  const event = statusEvent(kind, customerStatus);
  if (event) await recordEvent(tx, platformId, event, (await presentCustomers(platformId, [updated], tx))[0]);
}

export async function submit(platformId: string, customerId: string): Promise<Verification> {
  return transaction(async (tx) => {
    const customer = await lockCustomer(platformId, customerId, tx);
    const kind = kindOf(customer);
    const current = statusOf(customer);
    if (current === 'APPROVED' || current === 'REJECTED') {
      throw invalidInput(
        `Customer ${customerId} was already ${current === 'APPROVED' ? 'approved' : 'rejected'} (${kind.toLowerCase()}Status ${current}); it cannot be submitted for verification again`,
      );
    }
    const channels = unverifiedChannels(customer);
    if (channels.length) {
      throw invalidInput(
        `Customer ${customerId} must verify its ${channels.join(' and ')} before KYC can begin (send a verification code to it, then confirm the code)`,
        channels.map((c) => ({ field: `contactVerification.${c}`, message: 'must be VERIFIED before KYC can begin' })),
      );
    }
    const open = await repo.openOf(platformId, customerId, tx);
    // Under review there is nothing to re-submit: the reviewer works on what was submitted.
    if (open?.status === 'PENDING_MANUAL_REVIEW') return toVerification(open);
    const outcome = await evaluate(platformId, customer, tx);
    const at = now();
    const data = { status: outcome.status, errors: outcome.errors as unknown as Prisma.InputJsonValue, updatedAt: at };
    let row: repo.VerificationRow | null;
    if (open) {
      row = await repo.transition(open.id, 'RESOLVE_ERRORS', data, tx);
      if (!row)
        throw new DomainError(
          'INVALID_STATE_TRANSITION',
          `Verification ${open.id} changed while it was being re-submitted; retry`,
        );
    } else {
      row = await repo.insert({ id: newId('Verification'), platformId, customerId, ...data, createdAt: at }, tx);
    }
    const changed = !open || open.status !== row.status || JSON.stringify(open.errors) !== JSON.stringify(row.errors);
    await settle(platformId, customer, row, changed, tx);
    return toVerification(row);
  });
}

/**
 * A reviewer's decision on a verification in PENDING_MANUAL_REVIEW (the console calls this; no
 * vendor does in sandbox, where 001/003 submissions are never decided automatically).
 */
export async function decideReview(
  platformId: string,
  verificationId: string,
  decision: Decision,
): Promise<Verification> {
  const found = await repo.findById(platformId, verificationId, db());
  if (!found) throw notFound('REFERENCE_NOT_FOUND', `Verification ${verificationId}`);
  return transaction(async (tx) => {
    const customer = await lockCustomer(platformId, found.customerId, tx);
    const row = await repo.transition(
      verificationId,
      'PENDING_MANUAL_REVIEW',
      { status: decision, errors: [], updatedAt: now() },
      tx,
    );
    if (!row) {
      const current = await repo.findById(platformId, verificationId, tx);
      throw new DomainError(
        'INVALID_STATE_TRANSITION',
        `Verification ${verificationId} is ${current?.status}; only a verification in PENDING_MANUAL_REVIEW can be decided`,
      );
    }
    await settle(platformId, customer, row, true, tx);
    return toVerification(row);
  });
}

export async function get(platformId: string, id: string): Promise<Verification> {
  const row = await repo.findById(platformId, id, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Verification ${id}`);
  return toVerification(row);
}

export async function list(platformId: string, filter: repo.VerificationFilter, limit: number, cursor?: string) {
  const listed = await repo.list(platformId, filter, { limit, cursor, filters: { ...filter } });
  return pageOf(listed, toVerification);
}
