-- A wallet sign-in by an email with no wallet is answered from a decoy credential
-- (lib/wallet-auth/decoy.ts) that exists only in memory, so that the answer cannot tell who is a
-- customer (issue 23, finding 8). Its OTP challenge is issued, stored and checked like any other,
-- which needs an OtpChallenge row naming a credential that has no AuthMethod row. Credentials are
-- never deleted (they are revoked), so the foreign key guarded nothing else; the index stays.
ALTER TABLE "OtpChallenge" DROP CONSTRAINT "OtpChallenge_authMethodId_fkey";
