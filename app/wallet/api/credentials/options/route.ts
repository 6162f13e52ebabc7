import { relyingParty } from '@/lib/wallet-auth/webauthn';
import { walletOverview } from '@/lib/wallet-web/commands';
import { confirmFreshSignIn, listCredentials } from '@/lib/wallet-web/credential-commands';
import { newRegistrationChallenge } from '@/lib/wallet-web/service';
import { asHolder, json, refuseCrossSite, signedOut, walletRoute, webSession } from '../../../_server/http';

// POST /wallet/api/credentials/options – WebAuthn creation options for a new passkey of this
// wallet (for @simplewebauthn/browser's startRegistration): a fresh challenge remembered for this
// browser, the relying party, the wallet as the user, and the passkeys it has already. The passkey
// must be discoverable (a resident key): signing in with it needs no email typed. Like every change
// to how the wallet signs in, it needs a fresh sign-in ("confirm it's you"), checked before the
// authenticator is asked to create anything.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  await asHolder(s, confirmFreshSignIn);
  const [{ customer }, creds] = await Promise.all([asHolder(s, walletOverview), asHolder(s, listCredentials)]);
  const c = customer as typeof customer & { email?: string; fullName?: string };
  const existing = creds.data
    .filter((x) => x.type === 'PASSKEY' && x.credentialId)
    .map((x) => ({ id: x.credentialId!, type: 'public-key' as const }));
  const rp = relyingParty();
  return json(200, {
    challenge: await newRegistrationChallenge(s),
    rp: { id: rp.rpId, name: 'Corridor wallet' },
    user: {
      id: Buffer.from(s.accountId).toString('base64url'),
      name: c.email ?? s.accountId,
      displayName: c.fullName ?? c.email ?? 'Wallet holder',
    },
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    timeout: 120_000,
    attestation: 'none',
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
  });
});
