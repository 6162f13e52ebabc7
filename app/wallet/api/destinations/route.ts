import { forward } from '../../_server/forward';
import { relay, signedOut, walletRoute, webSession } from '../../_server/http';
import { externalAccounts } from '../../_server/routes';

// GET /wallet/api/destinations – the customer's external accounts, where the wallet can send to.
export const GET = walletRoute(async () => {
  const s = await webSession();
  if (!s) return signedOut();
  return relay(
    await forward(s.platformId, externalAccounts, 'GET', '/customers/external-accounts', {
      query: { customerId: s.customerId, limit: '100' },
    }),
  );
});
