import type { CustomerRow } from '../customers/repository';
import type { OwnerRow } from '../customers/beneficial-owners/repository';
import type { DocumentRow } from '../documents/repository';
import type { DocumentType } from '../documents/schema';
import type { VerificationError } from './schema';

// What a submission must contain before anyone looks at it. Each missing item is one
// VerificationError, so a platform learns everything it has to collect in one round-trip.

export const IDENTITY_DOCUMENTS: DocumentType[] = ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'];

// A business's document categories, with the types that satisfy each (the reference's
// VerificationError.acceptedDocumentTypes table). Formation, ownership structure and proof of
// address are required; the ownership documents also show who controls the business.
const BUSINESS_DOCUMENTS: { type: VerificationError['type']; accepted: DocumentType[]; what: string }[] = [
  {
    type: 'MISSING_LEGAL_PRESENCE_DOCUMENT',
    accepted: [
      'CERTIFICATE_OF_INCORPORATION',
      'ARTICLES_OF_INCORPORATION',
      'ARTICLES_OF_ASSOCIATION',
      'STATE_REGISTRY_EXCERPT',
    ],
    what: 'a company formation document',
  },
  {
    type: 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
    accepted: ['SHAREHOLDER_REGISTER', 'TRUST_AGREEMENT', 'PARTNERSHIP_AGREEMENT'],
    what: 'a document showing the ownership structure',
  },
  {
    type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    accepted: ['UTILITY_BILL', 'RENT_OR_LEASE_AGREEMENT', 'ELECTRICITY_BILL', 'BANK_STATEMENT', 'TAX_RETURN'],
    what: 'a proof of address dated within the last 3 months',
  },
];

type Profile = Record<string, unknown>;
const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

function missingField(resourceId: string, field: string, what: string): VerificationError {
  return { resourceId, type: 'MISSING_FIELD', field, reason: `${what} is required for verification` };
}

/** The holder's most recent identity document, if any. */
export function identityDocumentOf(holder: string, documents: DocumentRow[]): DocumentRow | undefined {
  return documents
    .filter((d) => d.documentHolder === holder && IDENTITY_DOCUMENTS.includes(d.documentType as DocumentType))
    .at(-1);
}

function missingIdentityDocument(holder: string, who: string): VerificationError {
  return {
    resourceId: holder,
    type: 'MISSING_IDENTITY_DOCUMENT',
    acceptedDocumentTypes: IDENTITY_DOCUMENTS,
    reason: `An identity document of ${who} (passport, driver's license or national ID) must be uploaded as a document of the customer`,
  };
}

/**
 * An individual is complete with full name, birth date, nationality, idType plus identifier,
 * address, and an identity document of their own.
 */
export function individualErrors(customer: CustomerRow, documents: DocumentRow[]): VerificationError[] {
  const profile = customer.profile as Profile;
  const fields: [string, unknown, string][] = [
    ['customer.fullName', customer.fullName, 'Full name'],
    ['customer.birthDate', profile.birthDate, 'Birth date'],
    ['customer.nationality', profile.nationality, 'Nationality'],
    ['customer.idType', profile.idType, 'Identification type (idType)'],
    ['customer.identifier', customer.identifier, 'Identification number (identifier)'],
    ['customer.address', profile.address, 'Residential address'],
  ];
  const errors = fields.filter(([, v]) => !present(v)).map(([field, , what]) => missingField(customer.id, field, what));
  if (!identityDocumentOf(customer.id, documents)) errors.push(missingIdentityDocument(customer.id, 'the customer'));
  return errors;
}

/**
 * A business (sandbox 001/003, or any business outside sandbox) is complete with:
 * - its address and business info: legal name, country, tax id, incorporation date and the
 *   countries it operates in;
 * - at least one beneficial owner, one of them holding the CONTROL_PERSON role (personalInfo is
 *   complete by construction: POST /beneficial-owners requires every field and PATCH cannot
 *   remove one);
 * - an identity document for every beneficial owner;
 * - one document of each category in BUSINESS_DOCUMENTS, held by the business.
 */
export function businessErrors(
  customer: CustomerRow,
  owners: OwnerRow[],
  documents: DocumentRow[],
): VerificationError[] {
  const profile = customer.profile as Profile;
  const info = (profile.businessInfo ?? {}) as Profile;
  const fields: [string, unknown, string][] = [
    ['customer.address', profile.address, 'The physical address of the principal place of business'],
    ['customer.businessInfo.legalName', info.legalName, 'The legal name'],
    ['customer.businessInfo.country', info.country, 'The country of incorporation'],
    ['customer.businessInfo.taxId', info.taxId, 'The tax identification number'],
    ['customer.businessInfo.incorporatedOn', info.incorporatedOn, 'The incorporation date'],
    ['customer.businessInfo.countriesOfOperation', info.countriesOfOperation, 'The countries of operation'],
  ];
  const errors = fields.filter(([, v]) => !present(v)).map(([field, , what]) => missingField(customer.id, field, what));
  if (owners.length === 0) {
    errors.push({
      resourceId: customer.id,
      type: 'MISSING_BENEFICIAL_OWNER',
      reason: 'Declare every individual owning 25% or more of the business as a beneficial owner',
    });
  }
  if (!owners.some((o) => o.roles.includes('CONTROL_PERSON'))) {
    errors.push({
      resourceId: customer.id,
      type: 'MISSING_CONTROL_PERSON',
      reason: 'Declare one control person (a beneficial owner with role CONTROL_PERSON)',
    });
  }
  for (const owner of owners) {
    const info = owner.personalInfo as Profile;
    if (!identityDocumentOf(owner.id, documents))
      errors.push(
        missingIdentityDocument(owner.id, `beneficial owner ${String(info.firstName)} ${String(info.lastName)}`),
      );
  }
  for (const category of BUSINESS_DOCUMENTS) {
    const held = documents.some(
      (d) => d.documentHolder === customer.id && category.accepted.includes(d.documentType as DocumentType),
    );
    if (!held) {
      errors.push({
        resourceId: customer.id,
        type: category.type,
        acceptedDocumentTypes: category.accepted,
        reason: `Upload ${category.what} of the business as a document of the customer`,
      });
    }
  }
  return errors;
}
