import { listDestinations } from '@/lib/wallet-web/commands';
import { asHolder, json, signedOut, walletRoute, webSession } from '../../_server/http';

// GET /wallet/api/destinations – the customer's external accounts, where the wallet can send to.
export const GET = walletRoute(async () => {
  const s = await webSession();
  if (!s) return signedOut();
  return json(200, await asHolder(s, listDestinations));
});
