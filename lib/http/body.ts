import { invalidInput } from '../core/errors';
import { parseJson } from '../core/json';

// Reading request bodies with limits, so that malformed, mistyped or oversized input is a
// clear 400 and never a 5xx.
export const JSON_BODY_LIMIT = 1024 * 1024; // 1 MiB
export const MULTIPART_BODY_LIMIT = 12 * 1024 * 1024; // documents up to 10 MiB plus form fields

async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
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

export async function readJsonBody(req: Request): Promise<RawJsonBody> {
  const bytes = await readLimited(req, JSON_BODY_LIMIT);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.trim() === '') return { value: undefined, text: '' };
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw invalidInput(`Content-Type must be application/json (got ${type || 'none'})`, [
      { field: '(body)', message: 'must be sent as application/json' },
    ]);
  }
  try {
    return { value: parseJson(text), text };
  } catch (err) {
    throw invalidInput(`Malformed JSON body: ${(err as Error).message}`, [
      { field: '(body)', message: 'is not valid JSON' },
    ]);
  }
}

export async function readMultipartBody(req: Request): Promise<FormData> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw invalidInput(`Content-Type must be multipart/form-data (got ${type || 'none'})`, [
      { field: '(body)', message: 'must be sent as multipart/form-data' },
    ]);
  }
  const bytes = await readLimited(req, MULTIPART_BODY_LIMIT);
  try {
    return await new Response(Buffer.from(bytes), { headers: { 'content-type': type } }).formData();
  } catch {
    throw invalidInput('Malformed multipart/form-data body', [
      { field: '(body)', message: 'is not valid multipart/form-data' },
    ]);
  }
}
