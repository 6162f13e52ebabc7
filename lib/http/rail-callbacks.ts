import { takeRailCallback, type CallbackResult } from '../payments/rail-engine';
import { RAIL_SIGNATURE_HEADER } from '../payments/rail-http';

// POST /rails/callbacks (app/rails/callbacks/route.ts): the connected rail reports what became of
// an instruction (docs/rails.md). Outside the API base: the caller is the operator's rail, not a
// platform, and it authenticates by signature, not by token. A 2xx tells the rail to stop
// resending; anything else, that it should resend (a 5xx) or that resending cannot help (4xx).
const STATUS: Record<CallbackResult['kind'], number> = {
  APPLIED: 200,
  IGNORED: 200,
  NO_RAIL: 404,
  BAD_SIGNATURE: 401,
  BAD_BODY: 400,
  UNKNOWN_REFERENCE: 404,
};
const CAP_BYTES = 64 * 1024;

const answer = (status: number, body: object) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });

export async function railCallbackAnswer(req: Request): Promise<Response> {
  const text = await req.text();
  if (Buffer.byteLength(text) > CAP_BYTES)
    return answer(413, { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'A callback body is at most 64 KiB' });
  const result = await takeRailCallback(text, req.headers.get(RAIL_SIGNATURE_HEADER));
  const status = STATUS[result.kind];
  return status === 200
    ? answer(200, { result: result.kind, message: result.message })
    : answer(status, { status, code: result.kind, message: result.message });
}
