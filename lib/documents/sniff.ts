// The type of an uploaded file is read from its first bytes (its magic number), never from the
// name or the Content-Type the uploader declared: both are whatever the client says.
export type DocumentContentType = 'image/jpeg' | 'image/png' | 'application/pdf';

const SIGNATURES: { type: DocumentContentType; bytes: number[] }[] = [
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // "%PDF-"
];

export function sniffContentType(content: Uint8Array): DocumentContentType | null {
  for (const { type, bytes } of SIGNATURES) {
    if (content.length >= bytes.length && bytes.every((b, i) => content[i] === b)) return type;
  }
  return null;
}
