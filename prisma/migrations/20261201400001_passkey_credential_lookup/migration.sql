-- A discoverable passkey sign-in (the wallet pages' "Sign in with a passkey" with no email typed)
-- names no credential of ours: its assertion carries the WebAuthn credential id, looked up here.
CREATE INDEX "AuthMethod_platformId_credentialId_idx" ON "AuthMethod"("platformId", "credentialId");
