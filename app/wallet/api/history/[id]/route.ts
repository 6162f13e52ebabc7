import { historyEntry } from '@/lib/wallet-web/history';
import { asHolder, json, signedOut, walletRoute, webSession } from '../../../_server/http';

// GET /wallet/api/history/{id}?accountId= – one entry of the history in full: the transaction,
// the quote it was executed from (rate, fees) and its timeline.
export const GET = walletRoute(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const s = await webSession();
  if (!s) return signedOut();
  const { id } = await ctx.params;
  const accountId = new URL(req.url).searchParams.get('accountId') ?? undefined;
  return json(200, await asHolder(s, historyEntry, { id, accountId }));
});
