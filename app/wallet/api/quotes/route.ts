import { createWalletQuote } from '@/lib/wallet-web/commands';
import { asHolder, body, json, refuseCrossSite, signedOut, walletRoute, webSession } from '../../_server/http';

// POST /wallet/api/quotes – {destination: {accountId} | {umaAddress}, amount, description?}: a
// quote paid from the signed-in customer's own wallet (the source is never the browser's to
// choose), to one of their own external accounts or to a UMA address.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  const b = await body(req);
  const { quote, status } = await asHolder(s, createWalletQuote, b?.value ?? null);
  return json(status, quote);
});
