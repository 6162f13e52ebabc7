import { listSessions } from '@/lib/wallet-web/credential-commands';
import { asHolder, json, signedOut, walletRoute, webSession } from '../../_server/http';

// GET /wallet/api/sessions – the wallet's open sessions (devices signed in), this browser's marked.
export const GET = walletRoute(async () => {
  const s = await webSession();
  if (!s) return signedOut();
  return json(200, await asHolder(s, listSessions));
});
