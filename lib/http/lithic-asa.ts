import { asaRequestOf, decideAsa } from '../cards/asa';
import { lithicAsa, verifyLithic, type LithicSecrets } from '../cards/lithic';

// POST /cards/lithic/asa (app/cards/lithic/asa/route.ts): Lithic's Auth Stream Access asks
// whether a card may authorize (docs/cards.md). Outside the API base: the caller is the card
// processor, not a platform, and it authenticates by Lithic's HMAC signature. A decision is a
// 200 with {result, token}; a request that is not Lithic's (no ASA secret configured, a bad
// signature, a body that is not an authorization request) gets the error body and no decision.
const CAP_BYTES = 64 * 1024;

export const lithicAnswer = (status: number, body: object) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
export const lithicRefusal = (status: number, code: string, message: string) =>
  lithicAnswer(status, { status, code, message });

/**
 * The body of a request Lithic signed under one of `secrets` (the webhook-* headers), or the
 * refusal to answer with: too large (413), unsigned, badly signed or stale (401).
 */
export async function signedBody(req: Request, secrets: LithicSecrets): Promise<string | Response> {
  const text = await req.text();
  if (Buffer.byteLength(text) > CAP_BYTES)
    return lithicRefusal(413, 'PAYLOAD_TOO_LARGE', 'A Lithic body is at most 64 KiB');
  const problem = verifyLithic(
    secrets,
    {
      id: req.headers.get('webhook-id'),
      timestamp: req.headers.get('webhook-timestamp'),
      signature: req.headers.get('webhook-signature'),
    },
    text,
  );
  return problem ? lithicRefusal(401, 'INVALID_SIGNATURE', problem) : text;
}

export async function lithicAsaAnswer(req: Request): Promise<Response> {
  const config = lithicAsa.get();
  if (!config)
    return lithicRefusal(404, 'NOT_FOUND', 'No Lithic Auth Stream Access is configured (CORRIDOR_LITHIC_ASA_SECRET)');
  const text = await signedBody(req, config);
  if (typeof text !== 'string') return text;
  const request = asaRequestOf(text);
  if ('error' in request) return lithicRefusal(400, 'INVALID_INPUT', request.error);
  return lithicAnswer(200, await decideAsa(request, config.deadlineMs));
}
