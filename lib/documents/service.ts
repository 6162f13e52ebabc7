import { createHash } from 'node:crypto';
import { newId } from '../core/ids';
import { now } from '../core/clock';
import { transaction, type Tx, db } from '../core/db';
import { conflict, fieldError, notFound } from '../core/errors';
import { pageOf } from '../core/list';
import * as customers from '../customers/repository';
import * as owners from '../customers/beneficial-owners/repository';
import * as repo from './repository';
import { sniffContentType, type DocumentContentType } from './sniff';
import type { DocumentReplace, DocumentUpload } from './schema';

// Verification documents of customers and of beneficial owners, kept in the database. Writes
// lock the customer the document belongs to, so they serialize with that customer's
// verification, which turns the documents it takes into review into fixed evidence.

export function toDocument(row: repo.DocumentRow) {
  return {
    id: row.id,
    documentHolder: row.documentHolder,
    documentType: row.documentType,
    ...(row.side ? { side: row.side } : {}),
    country: row.country,
    ...(row.documentNumber ? { documentNumber: row.documentNumber } : {}),
    ...(row.issuingAuthority ? { issuingAuthority: row.issuingAuthority } : {}),
    fileName: row.fileName,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type Document = ReturnType<typeof toDocument>;

interface StoredFile {
  fileName: string;
  contentType: DocumentContentType;
  size: number;
  sha256: string;
  content: Uint8Array<ArrayBuffer>;
}

async function readFile(file: File): Promise<StoredFile> {
  const content = new Uint8Array(await file.arrayBuffer());
  const contentType = sniffContentType(content);
  if (!contentType)
    throw fieldError('file', 'file must be a PDF, JPEG or PNG document (recognised from its content, not its name)');
  const name = file.name.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return {
    fileName: (name || 'document').slice(-255),
    contentType,
    size: content.byteLength,
    sha256: createHash('sha256').update(content).digest('hex'),
    content,
  };
}

/** The customer a holder id belongs to, locked. */
async function lockHolder(platformId: string, holder: string, tx: Tx): Promise<string> {
  if (holder.startsWith('BeneficialOwner:')) {
    const owner = await owners.findById(platformId, holder, tx);
    if (!owner) throw notFound('REFERENCE_NOT_FOUND', `Beneficial owner ${holder}`);
    await customers.lock(platformId, owner.customerId, tx);
    return owner.customerId;
  }
  const customer = await customers.lock(platformId, holder, tx);
  if (!customer || customer.deletedAt) throw notFound('USER_NOT_FOUND', `Customer ${holder}`);
  return customer.id;
}

export async function upload(platformId: string, input: DocumentUpload): Promise<Document> {
  const file = await readFile(input.file);
  return transaction(async (tx) => {
    const customerId = await lockHolder(platformId, input.documentHolder, tx);
    const at = now();
    const row = await repo.insert(
      {
        id: newId('Document'),
        platformId,
        documentHolder: input.documentHolder,
        customerId,
        documentType: input.documentType,
        side: input.side ?? null,
        country: input.country,
        documentNumber: input.documentNumber ?? null,
        issuingAuthority: input.issuingAuthority ?? null,
        ...file,
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    return toDocument(row);
  });
}

export async function get(platformId: string, id: string): Promise<Document> {
  const row = await repo.findById(platformId, id, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Document ${id}`);
  return toDocument(row);
}

export async function list(platformId: string, documentHolder: string | undefined, limit: number, cursor?: string) {
  const listed = await repo.list(platformId, documentHolder, { limit, cursor, filters: { documentHolder } });
  return pageOf(listed, toDocument);
}

const submitted = (id: string) =>
  conflict(
    `Document ${id} was submitted for verification and is kept as evidence; it can no longer be replaced or deleted`,
  );

/** A replacement is a new version of the whole document: optional fields not sent are cleared. */
export async function replace(platformId: string, id: string, input: DocumentReplace): Promise<Document> {
  const existing = await repo.findById(platformId, id, db());
  if (!existing) throw notFound('REFERENCE_NOT_FOUND', `Document ${id}`);
  const file = await readFile(input.file);
  return transaction(async (tx) => {
    await customers.lock(platformId, existing.customerId, tx);
    const done = await repo.replaceUnlessSubmitted(
      platformId,
      id,
      {
        documentType: input.documentType,
        side: input.side ?? null,
        country: input.country,
        documentNumber: input.documentNumber ?? null,
        issuingAuthority: input.issuingAuthority ?? null,
        ...file,
        updatedAt: now(),
      },
      tx,
    );
    const row = await repo.findById(platformId, id, tx);
    if (!row) throw notFound('REFERENCE_NOT_FOUND', `Document ${id}`);
    if (!done) throw submitted(id);
    return toDocument(row);
  });
}

export async function remove(platformId: string, id: string): Promise<void> {
  const existing = await repo.findById(platformId, id, db());
  if (!existing) throw notFound('REFERENCE_NOT_FOUND', `Document ${id}`);
  await transaction(async (tx) => {
    await customers.lock(platformId, existing.customerId, tx);
    if (await repo.deleteUnlessSubmitted(platformId, id, tx)) return;
    if (!(await repo.findById(platformId, id, tx))) throw notFound('REFERENCE_NOT_FOUND', `Document ${id}`);
    throw submitted(id);
  });
}

/** Every document of a customer (its own and its owners'), with what the console's preview needs. */
export async function ofCustomerForReview(platformId: string, customerId: string) {
  return (await repo.ofCustomer(platformId, customerId, db())).map((r) => ({
    ...toDocument(r),
    contentType: r.contentType,
    size: r.size,
    submitted: r.submittedAt !== null,
  }));
}

/** A document's file (type sniffed at upload, so the stored content type can be trusted). */
export async function file(platformId: string, id: string) {
  const row = await repo.findFile(platformId, id);
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Document ${id}`);
  return row;
}
