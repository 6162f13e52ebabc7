import { forward } from '../../_server/forward';
import { relay, signedOut, walletRoute, webSession } from '../../_server/http';
import { cards } from '../../_server/routes';

// GET /wallet/api/cards – the signed-in customer's cards (state, last four digits, limit), newest
// first. Card numbers are never here: a reveal goes through the platform (POST /cards/{id}/reveal).
export const GET = walletRoute(async () => {
  const s = await webSession();
  if (!s) return signedOut();
  return relay(
    await forward(s.platformId, cards, 'GET', '/cards', { query: { cardholderId: s.customerId, limit: '20' } }),
  );
});
