import { executeWalletQuote } from '@/lib/wallet-web/commands';
import {
  asHolderKeyed,
  refuseCrossSite,
  signatureOf,
  signedOut,
  walletRoute,
  webSession,
} from '../../../../_server/http';

// POST /wallet/api/quotes/{id}/execute – executes one of the customer's own wallet quotes with the
// stamp the browser made over its payloadToSign. The browser's Idempotency-Key makes it
// exactly-once, so a retry after a lost answer cannot pay twice.
export const POST = walletRoute(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  const { id } = await ctx.params;
  return asHolderKeyed(req, s, executeWalletQuote, { quoteId: id, stamp: signatureOf(req).stamp });
});
