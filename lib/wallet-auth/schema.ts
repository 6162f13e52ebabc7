import { z } from 'zod';
import { isoDateTime, recordId } from '../core/fields';

// Embedded-wallet authentication (reference: AuthMethod, AuthSession, the credential create and
// verify request oneOfs, PasskeyAuthChallenge, DelegatedKey, InternalAccountExport*).
export const credentialType = z.enum(['OAUTH', 'EMAIL_OTP', 'SMS_OTP', 'PASSKEY']);
export type CredentialType = z.infer<typeof credentialType>;

/** Compressed (66 hex) or uncompressed (130 hex) SEC1 P-256 public key. */
export const clientPublicKey = z
  .string()
  .max(130)
  .regex(
    /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/,
    'must be a P-256 public key in SEC1 hex: 02/03 + 64 hex characters, or 04 + 128',
  );
export const uncompressedPublicKey = z
  .string()
  .regex(/^04[0-9a-fA-F]{128}$/, 'must be an uncompressed P-256 public key: 04 + 128 hex characters');

// Leading and trailing whitespace ignored; 1-100 letters, numbers, spaces and . _ - ' ( ).
export const passkeyNickname = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\p{L}\p{N} ._\-'()]+$/u, "may contain letters, numbers, spaces and . _ - ' ( ) only");

const transport = z.enum(['usb', 'nfc', 'ble', 'internal', 'hybrid']);

export const passkeyAttestation = z.object({
  credentialId: z.string().min(1),
  clientDataJson: z.string().min(1),
  attestationObject: z.string().min(1),
  transports: z.array(transport).optional(),
});

export const passkeyAssertion = z.object({
  credentialId: z.string().min(1),
  clientDataJson: z.string().min(1),
  authenticatorData: z.string().min(1),
  signature: z.string().min(1),
  userHandle: z.string().optional(),
});

const accountId = z.string().min(1);

export const credentialCreate = z.discriminatedUnion('type', [
  z.object({ type: z.literal('EMAIL_OTP'), accountId }),
  z.object({ type: z.literal('SMS_OTP'), accountId }),
  z.object({ type: z.literal('OAUTH'), accountId, oidcToken: z.string().min(1) }),
  z.object({
    type: z.literal('PASSKEY'),
    accountId,
    nickname: passkeyNickname,
    challenge: z.string().min(1),
    attestation: passkeyAttestation,
  }),
]);
export type CredentialCreate = z.output<typeof credentialCreate>;

export const credentialVerify = z.discriminatedUnion('type', [
  z.object({ type: z.literal('EMAIL_OTP'), encryptedOtpBundle: z.string().min(1) }),
  z.object({ type: z.literal('SMS_OTP'), encryptedOtpBundle: z.string().min(1) }),
  z.object({ type: z.literal('OAUTH'), oidcToken: z.string().min(1), clientPublicKey }),
  z.object({ type: z.literal('PASSKEY'), assertion: passkeyAssertion }),
]);
export type CredentialVerify = z.output<typeof credentialVerify>;

export const challengeRequest = z.object({ clientPublicKey: clientPublicKey.optional() }).optional();
export const refreshRequest = z.object({ clientPublicKey });

export const accountQuery = z.object({ accountId: recordId('InternalAccount') });
export const idParams = z.object({ id: z.string() });

export const authMethod = z.object({
  id: z.string(),
  accountId: z.string(),
  type: credentialType,
  credentialId: z.string().optional(),
  nickname: z.string(),
  otpEncryptionTargetBundle: z.string().optional(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export const authMethodList = z.object({ data: z.array(authMethod) });

export const passkeyAuthChallenge = authMethod.extend({
  credentialId: z.string(),
  challenge: z.string(),
  requestId: z.string(),
  expiresAt: isoDateTime,
});

export const authSession = z.object({
  id: z.string(),
  accountId: z.string(),
  type: credentialType,
  nickname: z.string(),
  encryptedSessionSigningKey: z.string().optional(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  expiresAt: isoDateTime,
});
export const sessionList = z.object({ data: z.array(authSession) });

export const delegatedKeyCreate = z.object({
  cardId: z.string().min(1),
  internalAccountId: z.string().min(1),
  nickname: z.string().min(1).max(256),
});
export type DelegatedKeyCreate = z.output<typeof delegatedKeyCreate>;
export const delegatedKeyQuery = z
  .object({ accountId: z.string().min(1).optional(), fundingSourceId: z.string().min(1).optional() })
  .refine((q) => q.accountId || q.fundingSourceId, {
    message: 'at least one of accountId or fundingSourceId is required',
    path: ['accountId'],
  });
export const delegatedKey = z.object({
  id: z.string(),
  cardId: z.string(),
  fundingSourceId: z.string(),
  accountId: z.string(),
  publicKey: z.string(),
  nickname: z.string(),
  status: z.enum(['PENDING', 'ACTIVE', 'REVOKED']),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export const delegatedKeyList = z.object({ data: z.array(delegatedKey) });

export const exportRequest = z.object({ clientPublicKey: uncompressedPublicKey });
export const exportResponse = z.object({ id: z.string(), encryptedWalletCredentials: z.string() });
export const internalAccountUpdate = z
  .object({ privateEnabled: z.boolean().optional() })
  .refine((b) => b.privateEnabled !== undefined, {
    message: 'at least one update field (privateEnabled) is required',
    path: ['privateEnabled'],
  });

/** The request headers of every signed-retry operation (documentation). */
export const signedRetryHeaders = {
  'Service-Wallet-Signature': 'Stamp over payloadToSign on the signed retry (alias: Grid-Wallet-Signature)',
  'Request-Id': 'The requestId of the 202 challenge, on the signed retry',
};
