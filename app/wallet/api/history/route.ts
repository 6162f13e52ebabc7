import { listHistory } from '@/lib/wallet-web/history';
import { asHolder, json, signedOut, walletRoute, webSession } from '../../_server/http';

// GET /wallet/api/history?accountId=&cursor= – what moved money in one of the signed-in customer's
// accounts (the wallet by default), newest first, each entry naming the other side.
export const GET = walletRoute(async (req: Request) => {
  const s = await webSession();
  if (!s) return signedOut();
  const params = new URL(req.url).searchParams;
  const input = { accountId: params.get('accountId') ?? undefined, cursor: params.get('cursor') ?? undefined };
  return json(200, await asHolder(s, listHistory, input));
});
