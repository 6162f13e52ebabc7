import { db } from '@/lib/core/db';
import type { Api } from '@/tests/support/api';

// Sample files and upload helpers shared by the KYC/KYB test files.
export const JPEG = Uint8Array.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9,
]);
export const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);
export const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

export interface UploadFields {
  documentHolder?: string;
  documentType?: string;
  country?: string;
  side?: string;
  documentNumber?: string;
  issuingAuthority?: string;
  file?: { bytes: Uint8Array; name: string; type?: string } | string;
}

export function form(fields: UploadFields): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    if (typeof v === 'string') fd.append(k, v);
    else
      fd.append(
        k,
        new File([v.bytes as Uint8Array<ArrayBuffer>], v.name, { type: v.type ?? 'application/octet-stream' }),
      );
  }
  return fd;
}

/** Uploads a small valid document and returns the response. */
export function upload(
  api: Api,
  documentHolder: string,
  documentType: string,
  file: UploadFields['file'] = { bytes: PDF, name: 'doc.pdf' },
) {
  return api.post('/documents', form({ documentHolder, documentType, country: 'US', file }));
}

export const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };

// What the database holds for a document's file, to check it against what was uploaded.
export async function storedFile(id: string) {
  return db().document.findUniqueOrThrow({
    where: { id },
    select: { contentType: true, size: true, content: true, fileName: true },
  });
}
