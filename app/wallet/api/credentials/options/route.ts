import { relyingParty } from '@/lib/wallet-auth/webauthn';
import { newRegistrationChallenge } from '@/lib/wallet-web/service';
import { forward } from '../../../_server/forward';
import { json, parsed, refuseCrossSite, signedOut, walletRoute, webSession } from '../../../_server/http';
import { credentials, customer as customerRoute } from '../../../_server/routes';

// POST /wallet/api/credentials/options – WebAuthn creation options for a new passkey of this
// wallet (for @simplewebauthn/browser's startRegistration): a fresh challenge remembered for this
// browser, the relying party, the wallet as the user, and the passkeys it has already.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  const [c, creds] = await Promise.all([
    forward(s.platformId, customerRoute, 'GET', `/customers/${s.customerId}`, { params: { customerId: s.customerId } }),
    forward(s.platformId, credentials, 'GET', '/auth/credentials', { query: { accountId: s.accountId } }),
  ]);
  const customer = parsed(c) as { email?: string; fullName?: string };
  const existing = ((parsed(creds).data ?? []) as { type: string; credentialId?: string }[])
    .filter((x) => x.type === 'PASSKEY' && x.credentialId)
    .map((x) => ({ id: x.credentialId!, type: 'public-key' as const }));
  const rp = relyingParty();
  return json(200, {
    challenge: await newRegistrationChallenge(s),
    rp: { id: rp.rpId, name: 'Corridor wallet' },
    user: {
      id: Buffer.from(s.accountId).toString('base64url'),
      name: customer.email ?? s.accountId,
      displayName: customer.fullName ?? customer.email ?? 'Wallet holder',
    },
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    timeout: 120_000,
    attestation: 'none',
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
});
