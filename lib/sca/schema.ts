import { z } from 'zod';
import { isoDateTime } from '../core/fields';

// Strong Customer Authentication (reference tag "Strong Customer Authentication"), with the
// reference's names.
export const scaFactor = z.enum(['SMS_OTP', 'TOTP', 'PASSKEY']);
export const customerQuery = z.object({
  customerId: z.string().describe('The unique identifier of the customer'),
});
export const credentialIdParams = z.object({ credentialId: z.string() });
export const resetIdParams = z.object({ resetId: z.string() });

const webauthnJson = z.record(z.string(), z.unknown());
const origin = z.string().max(2048);
const code = z.string().max(32);

export const factorView = z.object({
  factor: scaFactor,
  credentialId: z.string().optional(),
  name: z.string().optional(),
});
export const factorList = z.object({ factors: z.array(factorView) });

export const enrollRequest = z.object({
  type: z.enum(['TOTP', 'PASSKEY']).describe('SMS_OTP is implicit (the verified phone) and not enrolled'),
});
export const enrollStart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('TOTP'), secret: z.string(), secretBase32Encoded: z.string(), totpUri: z.string() }),
  z.object({
    type: z.literal('PASSKEY'),
    options: webauthnJson,
    allowedOrigins: z.array(z.string()),
    relyingPartyId: z.string(),
  }),
]);

export const confirmRequest = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('TOTP'),
    secret: z.string().max(128),
    code: code.describe('The current code from the authenticator app (in sandbox 123456 is also accepted)'),
  }),
  z.object({ type: z.literal('PASSKEY'), origin, credential: webauthnJson }),
]);
export type FactorConfirmRequest = z.output<typeof confirmRequest>;
export const confirmResponse = z.discriminatedUnion('type', [
  z.object({ type: z.literal('TOTP'), recoveryCodes: z.array(z.string()) }),
  z.object({ type: z.literal('PASSKEY'), factor: factorView }),
]);

export const loginStartRequest = z.object({ factor: scaFactor });
export const loginStart = z.object({
  factor: scaFactor,
  challengeId: z.string().nullable().optional(),
  expiresAt: isoDateTime.nullable().optional(),
  passkeyOptions: webauthnJson.nullable().optional(),
  allowedOrigins: z.array(z.string()).nullable().optional(),
  relyingPartyId: z.string().nullable().optional(),
});

export const loginCompleteRequest = z
  .object({
    factor: scaFactor,
    endUserIpAddress: z.string().trim().min(1).max(45),
    challengeId: z.string().max(255).nullable().optional(),
    code: code.nullable().optional(),
    passkeyAssertion: webauthnJson.nullable().optional(),
    origin: origin.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.code == null && (v.passkeyAssertion == null || v.origin == null))
      ctx.addIssue({
        code: 'custom',
        path: ['code'],
        message: 'is required (or passkeyAssertion with origin for PASSKEY)',
      });
  });
export type LoginCompleteRequest = z.output<typeof loginCompleteRequest>;
export const loginComplete = z.object({
  status: z.string(),
  sessionExpiresAt: isoDateTime.nullable().optional(),
});

export const securityEventType = z.enum(['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT']);
export const recordEventRequest = z.object({ eventType: securityEventType });
export const recordEventResponse = z.object({
  eventType: securityEventType,
  suspended: z.boolean(),
  lockedUntil: isoDateTime.nullable().optional(),
  failedAttempts: z.number().int(),
});

export const resetStartRequest = z.object({ factor: scaFactor });
export const resetStart = z.object({
  resetId: z.string(),
  livenessAccessToken: z.string().nullable().optional(),
  verificationLink: z.string().nullable().optional(),
  expiresAt: isoDateTime.nullable().optional(),
});
export const resetStatus = z.object({
  status: z.enum(['INITIATED', 'PENDING_REVIEW', 'LIVENESS_PASSED', 'COMPLETED', 'REJECTED', 'EXPIRED']),
  factor: scaFactor,
  enrollmentStatus: z.enum(['PENDING', 'COMPLETED']).nullable().optional(),
  expiresAt: isoDateTime,
  completedAt: isoDateTime.nullable().optional(),
});
export const resetCompleteRequest = z
  .object({
    mobile: z
      .object({
        countryCode: z.string().regex(/^\+[1-9]\d{0,3}$/, 'must be a dialing code such as +49'),
        number: z.string().regex(/^\d{4,14}$/, 'must be the national subscriber number (digits only)'),
      })
      .optional(),
  })
  .optional();
