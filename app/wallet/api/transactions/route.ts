import { forward } from '../../_server/forward';
import { relay, signedOut, walletRoute, webSession } from '../../_server/http';
import { transactions } from '../../_server/routes';

// GET /wallet/api/transactions?cursor= – the signed-in customer's transactions, newest first.
export const GET = walletRoute(async (req: Request) => {
  const s = await webSession();
  if (!s) return signedOut();
  const cursor = new URL(req.url).searchParams.get('cursor') ?? undefined;
  return relay(
    await forward(s.platformId, transactions, 'GET', '/transactions', {
      query: { customerId: s.customerId, limit: '20', cursor: cursor && cursor.length <= 512 ? cursor : undefined },
    }),
  );
});
