import { revokeOtherSession } from '@/lib/wallet-web/credential-commands';
import {
  asHolder,
  json,
  refuseCrossSite,
  signatureOf,
  signedOut,
  walletRoute,
  webSession,
} from '../../../_server/http';

// DELETE /wallet/api/sessions/{id} – ends another open session of this wallet (a signed retry).
export const DELETE = walletRoute(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  const { id } = await ctx.params;
  const challenge = await asHolder(s, revokeOtherSession, { sessionId: id, signature: signatureOf(req) });
  return challenge ? json(202, challenge) : new Response(null, { status: 204 });
});
