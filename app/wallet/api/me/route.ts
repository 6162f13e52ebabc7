import { forward } from '../../_server/forward';
import { json, parsed, relay, walletRoute, webSession } from '../../_server/http';
import { customer as customerRoute, internalAccounts } from '../../_server/routes';

// GET /wallet/api/me – the signed-in customer, their accounts and balances, and their session;
// {signedIn: false} when this browser is not signed in (an answer, not an error: the page asks
// on every load).
export const GET = walletRoute(async () => {
  const s = await webSession();
  if (!s) return json(200, { signedIn: false });
  const [c, a] = await Promise.all([
    forward(s.platformId, customerRoute, 'GET', `/customers/${s.customerId}`, { params: { customerId: s.customerId } }),
    forward(s.platformId, internalAccounts, 'GET', '/customers/internal-accounts', {
      query: { customerId: s.customerId, limit: '100' },
    }),
  ]);
  if (c.status !== 200) return relay(c);
  if (a.status !== 200) return relay(a);
  const customer = parsed(c) as Record<string, unknown> & { businessInfo?: { legalName?: string } };
  return json(200, {
    signedIn: true,
    customer: {
      id: customer.id,
      name: customer.fullName ?? customer.businessInfo?.legalName ?? '',
      email: customer.email ?? '',
    },
    walletAccountId: s.accountId,
    accounts: (parsed(a) as { data: unknown[] }).data,
    session: { id: s.authSessionId, expiresAt: s.expiresAt },
  });
});
