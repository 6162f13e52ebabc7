import type { ReactNode } from 'react';
import { shortId } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Badge, Empty, Facts } from '@/components/ui';
import { DocumentList, type Doc } from './documents';

// What a KYC/KYB reviewer decides on: every field the customer holds (the named ones first, then
// any other field the platform sent, so nothing held is hidden), and for a business each
// beneficial owner by name with their own state, details and documents.
type Json = Record<string, unknown>;

const humanize = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`)
    .replace(/^./, (c) => c.toUpperCase());

function addressText(a: Json): string {
  return [a.line1, a.line2, [a.postalCode, a.city].filter(Boolean).join(' '), a.state, a.country]
    .filter((x) => typeof x === 'string' && x)
    .join(', ');
}

/** Any value a profile holds, as text a person reads. */
export function valueText(v: unknown): ReactNode {
  if (v === null || v === undefined || v === '') return '—';
  if (Array.isArray(v))
    return v.length ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ') : '—';
  if (typeof v === 'object') {
    const o = v as Json;
    if ('line1' in o || 'city' in o) return addressText(o);
    return Object.entries(o)
      .map(([k, x]) => `${humanize(k)}: ${typeof x === 'object' ? JSON.stringify(x) : String(x)}`)
      .join('; ');
  }
  return String(v);
}

const masked = (idType: unknown, lastFour: string) => `${idType ? `${String(idType)} ` : ''}ending ${lastFour}`;

// Shown elsewhere on the page (profile header, accounts) or not facts about the person.
const SHOWN = new Set([
  'id',
  'customerType',
  'kycStatus',
  'kybStatus',
  'platformCustomerId',
  'umaAddress',
  'isDeleted',
  'createdAt',
  'updatedAt',
  'beneficialOwners',
  'businessInfo',
  'identifier',
  'idType',
  'email',
  'phoneNumber',
  'region',
]);
const INDIVIDUAL_FIRST = ['fullName', 'birthDate', 'nationality', 'address', 'countryOfIssuance'];
const BUSINESS_FIRST = [
  'legalName',
  'doingBusinessAs',
  'entityType',
  'taxId',
  'registrationNumber',
  'incorporatedOn',
  'country',
];

function rest(o: Json, first: string[], skip: Set<string>): [string, ReactNode][] {
  return Object.keys(o)
    .filter((k) => !first.includes(k) && !skip.has(k))
    .sort()
    .map((k) => [humanize(k), valueText(o[k])]);
}

export function IndividualFacts({
  c,
  identifier,
}: {
  c: Json;
  identifier: { idType: string | null; lastFour: string } | null;
}) {
  return (
    <Facts
      items={[
        ['Full name', valueText(c.fullName)],
        ['Birth date', valueText(c.birthDate)],
        ['Nationality', valueText(c.nationality)],
        ['Address', valueText(c.address)],
        ['Id number', identifier ? masked(identifier.idType, identifier.lastFour) : '—'],
        ['Country of issuance', valueText(c.countryOfIssuance)],
        ...rest(c, INDIVIDUAL_FIRST, SHOWN),
      ]}
    />
  );
}

export function BusinessFacts({ c }: { c: Json }) {
  const b = (c.businessInfo ?? {}) as Json;
  return (
    <Facts
      items={[
        ['Legal name', valueText(b.legalName)],
        ['Doing business as', valueText(b.doingBusinessAs)],
        ['Entity type', valueText(b.entityType)],
        ['Tax id', valueText(b.taxId)],
        ['Registration number', valueText(b.registrationNumber)],
        ['Incorporated on', valueText(b.incorporatedOn)],
        ['Country', valueText(b.country)],
        ['Address', valueText(c.address)],
        ...rest(b, BUSINESS_FIRST, new Set()),
        ...rest(c, ['address'], SHOWN),
      ]}
    />
  );
}

interface Owner {
  id: string;
  roles: string[];
  ownershipPercentage: number | null;
  personalInfo: Json;
  kycStatus: string;
  createdAt: Date | string;
}

export const ownerName = (o: { personalInfo: Json }) =>
  [o.personalInfo.firstName, o.personalInfo.middleName, o.personalInfo.lastName].filter(Boolean).join(' ');

function OwnerCard({ o, docs }: { o: Owner; docs: Doc[] }) {
  const p = o.personalInfo;
  const id = typeof p.identifier === 'string' ? masked(p.idType, p.identifier.slice(-4)) : '—';
  return (
    <li className="rounded border border-slate-200 p-3">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium break-words">
          {ownerName(o)} <span className="font-mono text-xs font-normal text-slate-700">{shortId(o.id)}</span>
        </h3>
        <Badge status={o.kycStatus} />
      </div>
      <Facts
        items={[
          ['Roles', o.roles.join(', ')],
          ['Ownership', o.ownershipPercentage !== null ? `${o.ownershipPercentage}%` : '—'],
          ['Birth date', valueText(p.birthDate)],
          ['Nationality', valueText(p.nationality)],
          ['Address', valueText(p.address)],
          ['Id number', id],
          ...rest(
            p,
            ['firstName', 'middleName', 'lastName', 'birthDate', 'nationality', 'address'],
            new Set(['identifier', 'idType']),
          ),
          ['Added', <LocalTime key="t" value={o.createdAt} />],
        ]}
      />
      <h4 className="mt-3 mb-2 text-sm font-medium">Documents of {ownerName(o)}</h4>
      <DocumentList docs={docs} holderName={ownerName(o)} />
    </li>
  );
}

export function OwnersReview({ owners, docs }: { owners: Owner[]; docs: Doc[] }) {
  if (!owners.length) return <Empty>No beneficial owners recorded.</Empty>;
  return (
    <ul className="space-y-4">
      {owners.map((o) => (
        <OwnerCard key={o.id} o={o} docs={docs.filter((d) => d.documentHolder === o.id)} />
      ))}
    </ul>
  );
}
