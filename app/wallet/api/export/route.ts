import { forward } from '../../_server/forward';
import {
  body,
  problem,
  refuseCrossSite,
  relay,
  signatureOf,
  signedOut,
  walletRoute,
  webSession,
} from '../../_server/http';
import { walletExport } from '../../_server/routes';

// POST /wallet/api/export – {clientPublicKey}: the wallet's recovery phrase sealed (HPKE) to a
// key the browser just made; only the browser can open it. A signed retry.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  const b = await body(req);
  const key = b?.value.clientPublicKey;
  if (typeof key !== 'string' || !/^04[0-9a-fA-F]{128}$/.test(key))
    return problem(400, 'INVALID_INPUT', 'clientPublicKey must be an uncompressed P-256 public key (04 + 128 hex)');
  return relay(
    await forward(s.platformId, walletExport, 'POST', `/internal-accounts/${s.accountId}/export`, {
      params: { id: s.accountId },
      body: JSON.stringify({ clientPublicKey: key }),
      signature: signatureOf(req),
    }),
  );
});
