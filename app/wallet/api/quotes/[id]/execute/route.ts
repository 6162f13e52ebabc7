import { isId } from '@/lib/core/ids';
import { forward } from '../../../../_server/forward';
import {
  parsed,
  problem,
  refuseCrossSite,
  relay,
  signatureOf,
  signedOut,
  walletRoute,
  webSession,
} from '../../../../_server/http';
import { quote as quoteRoute, quoteExecute } from '../../../../_server/routes';

// POST /wallet/api/quotes/{id}/execute – executes one of the customer's own wallet quotes with the
// stamp the browser made over its payloadToSign. The browser's Idempotency-Key is passed along,
// so a retry after a lost answer cannot pay twice.
export const POST = walletRoute(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  const { id } = await ctx.params;
  if (!isId('Quote', id)) return problem(404, 'QUOTE_NOT_FOUND', `Quote ${id} not found`);
  const q = await forward(s.platformId, quoteRoute, 'GET', `/quotes/${id}`, { params: { quoteId: id } });
  const source = parsed(q).source as { accountId?: string } | undefined;
  if (q.status !== 200 || source?.accountId !== s.accountId)
    return problem(404, 'QUOTE_NOT_FOUND', `Quote ${id} not found`);
  const key = req.headers.get('idempotency-key') ?? undefined;
  return relay(
    await forward(s.platformId, quoteExecute, 'POST', `/quotes/${id}/execute`, {
      params: { quoteId: id },
      signature: { stamp: signatureOf(req).stamp },
      idempotencyKey: key && key.length <= 255 ? key : undefined,
    }),
  );
});
