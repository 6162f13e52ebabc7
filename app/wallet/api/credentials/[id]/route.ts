import { isId } from '@/lib/core/ids';
import { ownsCredential } from '@/lib/wallet-web/service';
import { forward } from '../../../_server/forward';
import {
  problem,
  refuseCrossSite,
  relay,
  signatureOf,
  signedOut,
  walletRoute,
  webSession,
} from '../../../_server/http';
import { credential } from '../../../_server/routes';

// DELETE /wallet/api/credentials/{id} – revokes one of this wallet's credentials (a signed retry
// by a session of another credential, as the API requires).
export const DELETE = walletRoute(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  const { id } = await ctx.params;
  if (!isId('AuthMethod', id) || !(await ownsCredential(s, id)))
    return problem(404, 'REFERENCE_NOT_FOUND', `Credential ${id} not found`);
  return relay(
    await forward(s.platformId, credential, 'DELETE', `/auth/credentials/${id}`, {
      params: { id },
      signature: signatureOf(req),
    }),
  );
});
