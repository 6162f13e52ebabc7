import { cookies } from 'next/headers';
import { endSession } from '@/lib/wallet-web/credential-commands';
import { close, COOKIE } from '@/lib/wallet-web/service';
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

// POST /wallet/api/sign-out – revokes this browser's wallet session (a signed retry: 202 with the
// payload to stamp, then again with the stamp), then forgets the browser's session.
// {"local": true} only forgets it here, for a browser that lost its key.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  const jar = await cookies();
  const forget = async () => {
    if (s) await close(s.id);
    jar.delete({ name: COOKIE, path: '/wallet' });
    return json(200, { signedOut: true });
  };
  if (!s) return jar.get(COOKIE) ? forget() : signedOut();
  const b = await body(req);
  if (b?.value.local === true) return forget();
  const challenge = await asHolder(s, endSession, { signature: signatureOf(req) });
  return challenge ? json(202, challenge) : forget();
});
