import { newId } from '../../core/ids';
import { now } from '../../core/clock';
import { transaction, type Prisma, type Tx, db } from '../../core/db';
import { fieldError, notFound } from '../../core/errors';
import { pageOf } from '../../core/list';
import * as customers from '../repository';
import { kycProvider, type Decision, type KycStatus } from '../kyc-provider';
import * as repo from './repository';
import { toOwner, type BeneficialOwner } from './presenter';
import type { OwnerCreate, OwnerUpdate, PersonalInfo } from './schema';

// Beneficial owners: the people who own or control a business customer. Their KYC is not
// decided on its own but with the business: PENDING while the business is under review, and
// the provider's decision once the business is decided.

/** The business row, locked, so owner changes serialize with the business's verification. */
export async function lockBusiness(platformId: string, customerId: string, tx: Tx): Promise<customers.CustomerRow> {
  const row = await customers.lock(platformId, customerId, tx);
  if (!row || row.deletedAt) throw notFound('USER_NOT_FOUND', `Customer ${customerId}`);
  if (row.customerType !== 'BUSINESS') {
    throw fieldError(
      'customerId',
      `Customer ${customerId} is an INDIVIDUAL; beneficial owners belong to BUSINESS customers`,
      { enum: ['BUSINESS'] },
    );
  }
  return row;
}

/** An owner's KYC given where its business stands: owners added late share the business's fate. */
function statusFor(business: customers.CustomerRow, lastName: string): KycStatus {
  const kyb = business.kybStatus;
  if (kyb === 'APPROVED' || kyb === 'REJECTED') return kycProvider.get().ownerDecision(lastName, kyb);
  if (kyb === 'PENDING') return 'PENDING';
  return 'UNVERIFIED';
}

async function checkOwnership(
  platformId: string,
  customerId: string,
  exceptId: string | null,
  percentage: number,
  tx: Tx,
) {
  const others = (await repo.ofCustomers(platformId, [customerId], tx)).filter((o) => o.id !== exceptId);
  const total = others.reduce((sum, o) => sum + o.ownershipPercentage, 0) + percentage;
  if (total > 100) {
    throw fieldError(
      'ownershipPercentage',
      `Ownership of the business's beneficial owners would total ${total}%; it cannot exceed 100%`,
    );
  }
}

export async function create(platformId: string, input: OwnerCreate): Promise<BeneficialOwner> {
  return transaction(async (tx) => {
    const business = await lockBusiness(platformId, input.customerId, tx);
    await checkOwnership(platformId, business.id, null, input.ownershipPercentage, tx);
    const at = now();
    const row = await repo.insert(
      {
        id: newId('BeneficialOwner'),
        platformId,
        customerId: business.id,
        roles: input.roles,
        ownershipPercentage: input.ownershipPercentage,
        personalInfo: input.personalInfo as Prisma.InputJsonValue,
        kycStatus: statusFor(business, input.personalInfo.lastName),
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    return toOwner(row);
  });
}

export async function get(platformId: string, id: string): Promise<BeneficialOwner> {
  const row = await repo.findById(platformId, id, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Beneficial owner ${id}`);
  return toOwner(row);
}

export async function list(platformId: string, customerId: string, limit: number, cursor?: string) {
  const business = await customers.findById(platformId, customerId, db());
  if (!business) throw notFound('USER_NOT_FOUND', `Customer ${customerId}`);
  const listed = await repo.list(platformId, customerId, { limit, cursor, filters: { customerId } });
  return pageOf(listed, toOwner);
}

// Changing a decided owner does not re-run its KYC: the decision was taken on the data then
// submitted, and a new decision needs a new verification of the business.
export async function update(platformId: string, id: string, input: OwnerUpdate): Promise<BeneficialOwner> {
  const found = await repo.findById(platformId, id, db());
  if (!found) throw notFound('REFERENCE_NOT_FOUND', `Beneficial owner ${id}`);
  return transaction(async (tx) => {
    await customers.lock(platformId, found.customerId, tx);
    const row = await repo.findById(platformId, id, tx);
    if (!row) throw notFound('REFERENCE_NOT_FOUND', `Beneficial owner ${id}`);
    if (input.ownershipPercentage !== undefined)
      await checkOwnership(platformId, row.customerId, id, input.ownershipPercentage, tx);
    const personalInfo = { ...(row.personalInfo as PersonalInfo), ...definedOnly(input.personalInfo ?? {}) };
    const updated = await repo.update(
      id,
      {
        ...(input.roles ? { roles: input.roles } : {}),
        ...(input.ownershipPercentage !== undefined ? { ownershipPercentage: input.ownershipPercentage } : {}),
        personalInfo: personalInfo as Prisma.InputJsonValue,
        updatedAt: now(),
      },
      tx,
    );
    return toOwner(updated);
  });
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The business went under review: its owners' verification is running. */
export async function markOwnersPending(platformId: string, customerId: string, at: Date, tx: Tx): Promise<void> {
  await repo.setStatusWhere(platformId, customerId, ['UNVERIFIED', 'HOLD'], 'PENDING', at, tx);
}

/** The business was decided: each undecided owner gets the provider's decision. */
export async function decideOwners(
  platformId: string,
  customerId: string,
  business: Decision,
  at: Date,
  tx: Tx,
): Promise<void> {
  const provider = kycProvider.get();
  for (const owner of await repo.ofCustomers(platformId, [customerId], tx)) {
    if (owner.kycStatus === 'APPROVED' || owner.kycStatus === 'REJECTED') continue;
    const to = provider.ownerDecision((owner.personalInfo as PersonalInfo).lastName, business);
    if (to !== owner.kycStatus) await repo.setStatus(owner.id, [owner.kycStatus], to, at, tx);
  }
}
