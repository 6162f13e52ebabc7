import { asaRequestOf, decideAsa, lithicAsa, verifyLithic } from '../cards/asa';

// POST /cards/lithic/asa (app/cards/lithic/asa/route.ts): Lithic's Auth Stream Access asks
// whether a card may authorize (docs/cards.md). Outside the API base: the caller is the card
// processor, not a platform, and it authenticates by Lithic's HMAC signature. A decision is a
// 200 with {result, token}; a request that is not Lithic's (no ASA secret configured, a bad
// signature, a body that is not an authorization request) gets the error body and no decision.
const CAP_BYTES = 64 * 1024;

const answer = (status: number, body: object) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
const refuse = (status: number, code: string, message: string) => answer(status, { status, code, message });

export async function lithicAsaAnswer(req: Request): Promise<Response> {
  const config = lithicAsa.get();
  if (!config)
    return refuse(404, 'NOT_FOUND', 'No Lithic Auth Stream Access is configured (CORRIDOR_LITHIC_ASA_SECRET)');
  const text = await req.text();
  if (Buffer.byteLength(text) > CAP_BYTES)
    return refuse(413, 'PAYLOAD_TOO_LARGE', 'An authorization request is at most 64 KiB');
  const problem = verifyLithic(
    config,
    {
      id: req.headers.get('webhook-id'),
      timestamp: req.headers.get('webhook-timestamp'),
      signature: req.headers.get('webhook-signature'),
    },
    text,
  );
  if (problem) return refuse(401, 'INVALID_SIGNATURE', problem);
  const request = asaRequestOf(text);
  if ('error' in request) return refuse(400, 'INVALID_INPUT', request.error);
  return answer(200, await decideAsa(request, config.deadlineMs));
}
