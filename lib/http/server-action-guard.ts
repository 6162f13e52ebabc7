import { DomainError } from '../core/errors';
import { API_BASE } from '../core/mode';
import { errorBody, shouldRetry } from './errors';
import { badCallArguments, badFormAction, type BodyProblem } from './server-action-body';

// The console's mutations are server actions: POSTs that Next.js decodes and runs itself, on any
// page path (an action posted to another page, or to a path with no page, is forwarded to the
// one that has it). Next.js's own checks answer a foreign `Origin` (or `Origin: null`), a body
// over its limit and a body it cannot decode with a 500, and let a request without `Origin` run
// the action. proxy.ts runs this first, for every request Next.js could take as an action, so
// each is refused with the error body and the action never starts:
// - 403 FORBIDDEN unless `Origin` names this site (the host the request was sent to — the
//   first X-Forwarded-Host when a proxy set one, as Next.js compares it — or the host of
//   CORRIDOR_PUBLIC_URL, which next.config.mjs also allows). Browsers send `Origin` with every
//   POST, so a missing one is a request no page of this site made;
// - 400 INVALID_INPUT for a body of unknown length (chunked), over ACTION_BODY_LIMIT, or not in
//   the shape the console's pages send (lib/http/server-action-body.ts); 415 for a compressed one.
// A request that passes is one Next.js's own checks pass too, so they never answer 500.

/** The largest action body: Next.js's default, set explicitly in next.config.mjs (serverActions.bodySizeLimit). */
export const ACTION_BODY_LIMIT = 1024 * 1024;

/**
 * Whether Next.js would take this request for a server action (its own test, in
 * app-render/action-handler): a POST naming an action in `Next-Action`, or a multipart form
 * (posted without JavaScript) naming it in a field. A multipart POST under the API's base path
 * always reaches a route handler (a catch-all answers unknown paths there), which runs no action.
 */
export function isPossibleServerAction(method: string, headers: Headers, path: string): boolean {
  if (method !== 'POST') return false;
  if (headers.get('next-action')) return true;
  if (path.startsWith(`${API_BASE}/`)) return false;
  return (headers.get('content-type') ?? '').startsWith('multipart/form-data');
}

function ownHosts(headers: Headers): string[] {
  const forwarded = headers.get('x-forwarded-host')?.split(',')[0]?.trim();
  const hosts = [forwarded || headers.get('host') || ''];
  try {
    if (process.env.CORRIDOR_PUBLIC_URL) hosts.push(new URL(process.env.CORRIDOR_PUBLIC_URL).host);
  } catch {
    // A malformed CORRIDOR_PUBLIC_URL names no site: only the request's own host is allowed.
  }
  return hosts.filter(Boolean);
}

function originProblem(headers: Headers): BodyProblem {
  const origin = headers.get('origin');
  if (origin === null) return 'it carries no Origin header';
  if (origin === 'null') return 'it comes from an opaque origin (Origin: null)';
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return 'its Origin header is not a URL';
  }
  return ownHosts(headers).includes(host) ? null : `its Origin (${origin.slice(0, 100)}) is not this site`;
}

function refusal(err: DomainError): Response {
  return new Response(JSON.stringify(errorBody(err)), {
    status: errorBody(err).status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-should-retry': String(shouldRetry(err)),
      'cache-control': 'no-store',
    },
  });
}

const malformed = (problem: string) =>
  new DomainError('INVALID_INPUT', `Malformed console action: ${problem}`, {
    errors: [{ field: '(body)', message: problem }],
  });

/** Why the length or encoding of the body is refused, before any of it is read. */
function framingRefusal(headers: Headers): DomainError | null {
  const length = headers.get('content-length');
  if (headers.has('transfer-encoding') || length === null || !/^\d{1,12}$/.test(length))
    return malformed('the body must be sent with a Content-Length');
  if (Number(length) > ACTION_BODY_LIMIT)
    return new DomainError('INVALID_INPUT', `Request body is larger than the ${ACTION_BODY_LIMIT / 1024} KiB limit`, {
      errors: [{ field: '(body)', message: `must be at most ${ACTION_BODY_LIMIT} bytes` }],
    });
  const encoding = (headers.get('content-encoding') ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity')
    return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the body uncompressed (no Content-Encoding)', {
      errors: [{ field: 'Content-Encoding', message: 'must be absent (or identity)' }],
    });
  return null;
}

async function bodyProblem(request: Request): Promise<BodyProblem> {
  const type = request.headers.get('content-type') ?? '';
  const bytes = new Uint8Array(await request.arrayBuffer());
  const fetchAction = Boolean(request.headers.get('next-action'));
  if (!type.startsWith('multipart/form-data'))
    return fetchAction ? badCallArguments(null, new TextDecoder().decode(bytes)) : null;
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
  } catch {
    return 'the multipart body cannot be read';
  }
  return fetchAction ? badCallArguments(form, null) : badFormAction(form);
}

/** The answer refusing this server-action request, or null to let Next.js run it. */
export async function refuseServerAction(request: Request, path: string): Promise<Response | null> {
  if (!isPossibleServerAction(request.method, request.headers, path)) return null;
  const origin = originProblem(request.headers);
  if (origin)
    return refusal(new DomainError('FORBIDDEN', `Console actions are accepted from this site only: ${origin}`));
  const framing = framingRefusal(request.headers);
  if (framing) return refusal(framing);
  const problem = await bodyProblem(request).catch(() => 'the body cannot be read');
  return problem ? refusal(malformed(problem)) : null;
}
