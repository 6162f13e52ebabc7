import { isChallenge } from '@/lib/wallet-auth/presenter';
import { exportWallet } from '@/lib/wallet-web/credential-commands';
import {
  asHolder,
  body,
  json,
  refuseCrossSite,
  signatureOf,
  signedOut,
  walletRoute,
  webSession,
} from '../../_server/http';

// POST /wallet/api/export – {clientPublicKey}: the wallet's recovery phrase sealed (HPKE) to a
// key the browser just made; only the browser can open it. A signed retry.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  const b = await body(req);
  const result = await asHolder(s, exportWallet, {
    clientPublicKey: b?.value.clientPublicKey,
    signature: signatureOf(req),
  });
  return json(isChallenge(result) ? 202 : 200, result);
});
