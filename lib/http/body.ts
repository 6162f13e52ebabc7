import { DomainError, invalidInput } from '../core/errors';
import { EdgeError } from './errors';
import { parseJson } from '../core/json';
import { fieldPath, LONE_SURROGATE } from '../core/validation';

// Reading request bodies with limits, so that malformed, mistyped, oversized, compressed or
// stalled input is a clear 4xx and never a 5xx or a hang.
export const JSON_BODY_LIMIT = 1024 * 1024; // 1 MiB
export const MULTIPART_BODY_LIMIT = 12 * 1024 * 1024; // documents up to 10 MiB plus form fields
/**
 * How long a body may pause before it is taken as incomplete: a Content-Length larger than what
 * the client sends would otherwise hold the request (and a database-free slot of the server) until
 * the connection's own timeout, minutes later.
 */
export const BODY_IDLE_MS = 5_000;

/**
 * Bodies are taken as sent: a Content-Encoding (gzip, deflate, br, ...) is refused with 415
 * rather than decoded, so what is hashed for Idempotency-Key, signed by wallets and validated is
 * exactly the bytes received, and no small compressed body can expand past the limits.
 */
function refuseContentEncoding(req: Request): void {
  const encoding = (req.headers.get('content-encoding') ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return;
  throw new EdgeError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Content-Encoding ${encoding.slice(0, 64)} is not supported: send the request body uncompressed`,
    { errors: [{ field: 'Content-Encoding', message: 'must be absent (or identity)' }] },
    { 'accept-encoding': 'identity' },
  );
}

const stalled = () =>
  invalidInput(
    `The request body stopped arriving for ${BODY_IDLE_MS / 1000} s before it was complete (is Content-Length larger than the body sent?)`,
    [{ field: '(body)', message: 'ended before the announced length arrived' }],
  );

const unreadable = () =>
  invalidInput('The request body could not be read (the connection failed while it was being sent)', [
    { field: '(body)', message: 'could not be read' },
  ]);

async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>) {
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(stalled()), BODY_IDLE_MS)));
  try {
    return await Promise.race([reader.read().catch(() => Promise.reject(unreadable())), idle]);
  } finally {
    clearTimeout(timer);
  }
}

async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await readChunk(reader);
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw tooLarge(limit);
      chunks.push(value);
    }
  } catch (err) {
    void reader.cancel().catch(() => {});
    throw err;
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number) {
  return invalidInput(`Request body is larger than the ${Math.floor(limit / 1024)} KiB limit`, [
    { field: '(body)', message: `must be at most ${limit} bytes` },
  ]);
}

export interface RawJsonBody {
  /** The parsed value; undefined when the request had no body. */
  value: unknown;
  /** The exact bytes, for hashing and signature binding. */
  text: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Part = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export async function readJsonBody(req: Request): Promise<RawJsonBody> {
  refuseContentEncoding(req);
  const bytes = await readLimited(req, JSON_BODY_LIMIT);
  if (isBlank(bytes)) return { value: undefined, text: '' };
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw invalidInput(`Content-Type must be application/json (got ${type || 'none'})`, [
      { field: '(body)', message: 'must be sent as application/json' },
    ]);
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw invalidUtf8(bytes);
  }
  try {
    return { value: parseJson(text), text };
  } catch (err) {
    throw invalidInput(`Malformed JSON body: ${(err as Error).message}`, [
      { field: '(body)', message: 'is not valid JSON' },
    ]);
  }
}

/** Nothing but JSON whitespace (or nothing at all): no body. */
function isBlank(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  return true;
}

/**
 * The refusal of a body that is not UTF-8, naming the fields the bad bytes sit in: each invalid
 * byte is replaced by the JSON escape of a lone surrogate, which the parser carries into the
 * string (or field name) it sits in, where a walk finds it. Bytes outside any string leave the
 * JSON malformed, and the whole body is named.
 */
function invalidUtf8(bytes: Uint8Array): DomainError {
  const message = 'contains bytes that are not valid UTF-8';
  let fields = ['(body)'];
  try {
    const found = pathsWithLoneSurrogates(parseJson(markInvalidBytes(bytes)), []);
    if (found.length) fields = found;
  } catch {
    // not JSON once marked either: the whole body is named
  }
  return invalidInput(
    `Invalid request body: ${fields.join(', ')} ${message}`,
    fields.map((field) => ({ field, message })),
  );
}

function markInvalidBytes(bytes: Uint8Array): string {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length;) {
    const n = utf8SequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    parts.push(utf8Part.decode(bytes.subarray(start, i)), '\\ud800');
    start = ++i;
  }
  parts.push(utf8Part.decode(bytes.subarray(start)));
  return parts.join('');
}

/** Length of the well-formed UTF-8 sequence starting at `i` (Unicode table 3-7), 0 if none. */
function utf8SequenceLength(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k] >= lo && b[i + k] <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c >= 0xe1 && c <= 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

function pathsWithLoneSurrogates(v: unknown, path: PropertyKey[], out: string[] = []): string[] {
  if (out.length >= 20 || path.length > 64) return out;
  if (typeof v === 'string') {
    if (LONE_SURROGATE.test(v)) out.push(fieldPath(path));
  } else if (Array.isArray(v)) {
    v.forEach((item, i) => pathsWithLoneSurrogates(item, [...path, i], out));
  } else if (v !== null && typeof v === 'object') {
    for (const [k, item] of Object.entries(v)) {
      if (LONE_SURROGATE.test(k)) out.push(fieldPath(path));
      else pathsWithLoneSurrogates(item, [...path, k], out);
    }
  }
  return out;
}

export async function readMultipartBody(req: Request): Promise<FormData> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw invalidInput(`Content-Type must be multipart/form-data (got ${type || 'none'})`, [
      { field: '(body)', message: 'must be sent as multipart/form-data' },
    ]);
  }
  refuseContentEncoding(req);
  const bytes = await readLimited(req, MULTIPART_BODY_LIMIT);
  try {
    return await new Response(Buffer.from(bytes), { headers: { 'content-type': type } }).formData();
  } catch {
    throw invalidInput('Malformed multipart/form-data body', [
      { field: '(body)', message: 'is not valid multipart/form-data' },
    ]);
  }
}
