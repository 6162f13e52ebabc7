import { nowFor } from '@/lib/core/clock';
import { walletOverview } from '@/lib/wallet-web/commands';
import { signInFreshness } from '@/lib/wallet-web/credential-commands';
import { customerActor } from '@/lib/wallet-web/service';
import { asHolder, json, walletRoute, webSession } from '../../_server/http';

// GET /wallet/api/me – the signed-in customer, their accounts and balances, and their session;
// {signedIn: false} when this browser is not signed in (an answer, not an error: the page asks
// on every load).
export const GET = walletRoute(async () => {
  const s = await webSession();
  if (!s) return json(200, { signedIn: false });
  const [{ customer, accounts }, { freshSecondsLeft }] = await Promise.all([
    asHolder(s, walletOverview),
    asHolder(s, signInFreshness),
  ]);
  const c = customer as typeof customer & {
    fullName?: string;
    email?: string;
    umaAddress?: string;
    businessInfo?: { legalName?: string };
  };
  return json(200, {
    signedIn: true,
    customer: {
      id: c.id,
      name: c.fullName ?? c.businessInfo?.legalName ?? '',
      email: c.email ?? '',
      umaAddress: c.umaAddress ?? null,
    },
    walletAccountId: s.accountId,
    accounts,
    // On the platform's clock (a sandbox clock may be moved): the page counts down from secondsLeft.
    session: {
      id: s.authSessionId,
      expiresAt: s.expiresAt,
      secondsLeft: Math.max(0, Math.floor((s.expiresAt.getTime() - nowFor(await customerActor(s)).getTime()) / 1000)),
      // How long the recovery phrase and credential changes go ahead without "confirm it's you".
      freshSecondsLeft,
    },
  });
});
