import { listCards } from '@/lib/wallet-web/commands';
import { asHolder, json, signedOut, walletRoute, webSession } from '../../_server/http';

// GET /wallet/api/cards – the signed-in customer's cards (state, last four digits, limit), newest
// first. Card numbers are never here: a reveal goes through the platform (POST /cards/{id}/reveal).
export const GET = walletRoute(async () => {
  const s = await webSession();
  if (!s) return signedOut();
  return json(200, await asHolder(s, listCards));
});
