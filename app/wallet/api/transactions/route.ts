import { listTransactions } from '@/lib/wallet-web/commands';
import { asHolder, json, signedOut, walletRoute, webSession } from '../../_server/http';

// GET /wallet/api/transactions?cursor= – the signed-in customer's transactions, newest first.
export const GET = walletRoute(async (req: Request) => {
  const s = await webSession();
  if (!s) return signedOut();
  const cursor = new URL(req.url).searchParams.get('cursor') ?? undefined;
  return json(200, await asHolder(s, listTransactions, { cursor }));
});
