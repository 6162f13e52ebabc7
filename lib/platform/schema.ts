import { z } from 'zod';
import { currencyCode, email, isoDateTime, money } from '../core/fields';

// Platform configuration (reference: PlatformConfig, PlatformConfigUpdateRequest).
export const customerInfoFieldName = z.enum([
  'FULL_NAME',
  'BIRTH_DATE',
  'NATIONALITY',
  'PHONE_NUMBER',
  'EMAIL',
  'POSTAL_ADDRESS',
  'TAX_ID',
  'REGISTRATION_NUMBER',
  'USER_TYPE',
  'COUNTRY_OF_RESIDENCE',
  'ACCOUNT_IDENTIFIER',
  'FI_LEGAL_ENTITY_NAME',
  'FI_ADDRESS',
  'PURPOSE_OF_PAYMENT',
  'ULTIMATE_INSTITUTION_COUNTRY',
  'IDENTIFIER',
  'BUSINESS_TYPE',
  'COMPANY_LEGAL_NAME',
  'ID_TYPE',
  'ID_NUMBER',
]);
export const transactionType = z.enum(['INCOMING', 'OUTGOING']);

export const counterpartyFieldDefinition = z.object({ name: customerInfoFieldName, mandatory: z.boolean() });

export const platformCurrencyConfig = z
  .object({
    currencyCode,
    minAmount: money(),
    maxAmount: money(),
    requiredCounterpartyFields: z.array(counterpartyFieldDefinition),
    enabledTransactionTypes: z.array(transactionType),
    // Read-only in the reference: set by the provider, accepted (a client may send back what
    // GET /config returned) and ignored.
    providerRequiredCustomerFields: z.array(customerInfoFieldName).optional(),
    providerRequiredCounterpartyCustomerFields: z.array(customerInfoFieldName).optional(),
  })
  .refine((c) => c.maxAmount >= c.minAmount, { path: ['maxAmount'], message: 'must be >= minAmount' });

export const embeddedWalletConfig = z.object({
  appName: z.string().max(255).optional(),
  otpLength: z.number().int().min(4).max(12).optional(),
  alphanumeric: z.boolean().optional(),
  expirationSeconds: z.number().int().min(1).max(86400).optional(),
  sendFromEmailAddress: email.max(255).optional(),
  sendFromEmailSenderName: z.string().max(255).optional(),
  replyToEmailAddress: email.max(255).optional(),
  logoUrl: z.url().max(512).optional(),
});

export const cardTokenization2faConfig = z.object({
  displayName: z.string().max(255).optional(),
  logoUrl: z
    .url()
    .max(512)
    .regex(/^https:\/\//, 'must be an https URL')
    .optional(),
  email: z
    .object({
      fromAddress: email.max(255).optional(),
      fromName: z.string().max(255).optional(),
      replyToAddress: email.max(255).optional(),
      subject: z.string().max(255).optional(),
      bodyText: z.string().max(2000).optional(),
    })
    .optional(),
  sms: z.object({ templateSid: z.string().max(64).optional(), bodyText: z.string().max(480).optional() }).optional(),
});

export const feeConfig = z.object({
  feeType: z.enum(['CROSS_CURRENCY_TRANSACTION']),
  sourceCurrency: currencyCode,
  variableFeeBps: z.number().int().min(0).max(10000),
  fixedFee: z.object({ amount: money(), currency: currencyCode }),
});

const domainName = z
  .string()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i,
    'must be a domain name such as pay.example.com',
  );

export const webhookUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without credentials');

export const configUpdate = z.object({
  umaDomain: domainName.optional(),
  // An empty string or null removes the endpoint.
  webhookEndpoint: z.union([webhookUrl, z.literal(''), z.null()]).optional(),
  supportedCurrencies: z
    .array(platformCurrencyConfig)
    .min(1)
    .refine((list) => new Set(list.map((c) => c.currencyCode)).size === list.length, 'must not list a currency twice')
    .optional(),
  embeddedWalletConfig: embeddedWalletConfig.optional(),
  cardTokenization2faConfig: cardTokenization2faConfig.optional(),
  feeConfigs: z.array(feeConfig).optional(),
});
export type ConfigUpdate = z.output<typeof configUpdate>;

export const platformConfig = z.object({
  id: z.string(),
  umaDomain: z.string(),
  proxyUmaSubdomain: z.string().optional(),
  webhookEndpoint: z.string().optional(),
  // Our addition: the SPKI PEM public key that verifies X-Grid-Signature on this platform's webhooks.
  webhookSigningPublicKey: z.string().optional(),
  supportedCurrencies: z.array(
    z.object({
      currencyCode: z.string(),
      minAmount: money(),
      maxAmount: money(),
      requiredCounterpartyFields: z.array(counterpartyFieldDefinition),
      providerRequiredCustomerFields: z.array(customerInfoFieldName).optional(),
      providerRequiredCounterpartyCustomerFields: z.array(customerInfoFieldName).optional(),
      enabledTransactionTypes: z.array(transactionType),
    }),
  ),
  isRegulatedFinancialInstitution: z.boolean(),
  embeddedWalletConfig: embeddedWalletConfig.optional(),
  cardTokenization2faConfig: cardTokenization2faConfig.optional(),
  feeConfigs: z.array(feeConfig),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
