// Domain errors: every failure a service reports carries one of the interface specification's
// error codes (Errors part, completed from the reference's Error4xx enums), a message for the
// caller and optional details. Which HTTP status a code answers with is the API edge's business
// (lib/http/errors.ts); services never speak HTTP.
export const ERROR_CODES = [
  'INVALID_INPUT',
  'END_USER_TERMS_VERSION_NOT_FOUND',
  'MISSING_MANDATORY_USER_INFO',
  'INVITATION_ALREADY_CLAIMED',
  'INVITATIONS_NOT_CONFIGURED',
  'INVALID_UMA_ADDRESS',
  'INVITATION_CANCELLED',
  'QUOTE_REQUEST_FAILED',
  'INVALID_PAYREQ_RESPONSE',
  'INVALID_RECEIVER',
  'PARSE_PAYREQ_RESPONSE_ERROR',
  'CERT_CHAIN_INVALID',
  'CERT_CHAIN_EXPIRED',
  'INVALID_PUBKEY_FORMAT',
  'MISSING_REQUIRED_UMA_PARAMETERS',
  'SENDER_NOT_ACCEPTED',
  'AMOUNT_OUT_OF_RANGE',
  'INVALID_CURRENCY',
  'INVALID_TIMESTAMP',
  'INVALID_NONCE',
  'INVALID_REQUEST_FORMAT',
  'INVALID_BANK_ACCOUNT',
  'SELF_PAYMENT',
  'LOOKUP_REQUEST_FAILED',
  'PARSE_LNURLP_RESPONSE_ERROR',
  'INVALID_AMOUNT',
  'WEBHOOK_ENDPOINT_NOT_SET',
  'WEBHOOK_DELIVERY_ERROR',
  'LOW_QUALITY',
  'DATA_MISMATCH',
  'EXPIRED',
  'SUSPECTED_FRAUD',
  'UNSUITABLE_DOCUMENT',
  'INCOMPLETE',
  'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
  'SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
  'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
  'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
  'STABLECOIN_PROVIDER_ACCOUNT_REVOKED',
  'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
  'CARDHOLDER_KYC_NOT_APPROVED',
  'TRANSACTION_SIZE_LIMIT_EXCEEDED',
  // The ledger's refusal of an overdraft: the domain's own code, answered by the edge as the
  // specification's INVALID_INPUT with this code as details.reason (lib/http/errors.ts).
  'INSUFFICIENT_FUNDS',
  'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
  'UNAUTHORIZED',
  'INVALID_SIGNATURE',
  'WALLET_SIGNATURE_MISSING',
  'WALLET_SIGNATURE_MALFORMED',
  'WALLET_SIGNATURE_BODY_MISMATCH',
  'WALLET_SIGNATURE_INVALID',
  'REQUEST_ID_MISSING',
  'FORBIDDEN',
  'USER_NOT_READY',
  'COUNTERPARTY_NOT_ALLOWED',
  'VELOCITY_LIMIT_EXCEEDED',
  'END_USER_TERMS_NOT_ACCEPTED',
  'TRANSACTION_NOT_FOUND',
  'INVITATION_NOT_FOUND',
  'USER_NOT_FOUND',
  'QUOTE_NOT_FOUND',
  'LOOKUP_REQUEST_NOT_FOUND',
  'TOKEN_NOT_FOUND',
  'BULK_UPLOAD_JOB_NOT_FOUND',
  'REFERENCE_NOT_FOUND',
  'UMA_NOT_FOUND',
  'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  'TRANSACTION_NOT_CANCELLABLE',
  'UMA_ADDRESS_EXISTS',
  'EMAIL_OTP_EMAIL_ALREADY_EXISTS',
  'EMAIL_OTP_CREDENTIAL_SET_CHANGED',
  'PASSKEY_ALREADY_ENROLLED',
  'SCA_SESSION_REQUIRED',
  'BENEFICIARY_TRUSTED',
  'INVALID_STATE_TRANSITION',
  'CARD_ALREADY_CLOSED',
  'CARD_NOT_MUTABLE',
  'CONFLICT',
  'CUSTOMER_DELETED',
  'UNSUPPORTED_UMA_VERSION',
  'ACCOUNT_LOCKED',
  'PAYREQ_REQUEST_FAILED',
  'COUNTERPARTY_PUBKEY_FETCH_ERROR',
  'NO_COMPATIBLE_UMA_VERSION',
  'LNURLP_REQUEST_FAILED',
  'EMAIL_OTP_CREDENTIAL_SYNC_FAILED',
  'RATE_LIMITED',
  'DAILY_VOLUME_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
  'SERVICE_SWITCH_ERROR',
  'NOT_IMPLEMENTED',
  'UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY',
  'SERVICE_UNAVAILABLE',
  // Statuses the specification leaves open ("not shown"), answered at the HTTP edge.
  'REQUEST_TIMEOUT',
  'UNSUPPORTED_MEDIA_TYPE',
  'REQUEST_HEADERS_TOO_LARGE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One field problem, reported in `details.errors[]` (dot-notation `field`). */
export interface FieldError {
  field: string;
  constraint?: { format?: string; pattern?: string; enum?: string[]; minLength?: number; maxLength?: number };
  message: string;
}

/**
 * What a caller can do about a refusal, where the code alone does not tell; the API edge turns
 * these facts into its answer's headers (Retry-After, the retry hint).
 */
export interface ErrorFacts {
  /** Seconds after which the same request may succeed. */
  retryAfterSeconds?: number;
  /** Whether retrying the same request can succeed. */
  retryable?: boolean;
}

/** Marks every DomainError, whichever copy of this module made it (Symbol.for is one per process). */
const DOMAIN_ERROR = Symbol.for('corridor.DomainError');

export class DomainError extends Error {
  /**
   * Next.js bundles this module more than once in a production build (the chunk that builds the
   * ports at start-up and the route handlers' chunks): an error thrown by an adapter made at
   * start-up — "no exchange-rate provider is connected" — is then an instance of another copy of
   * this class, and a plain prototype check at the edge turned it into a 500. `instanceof
   * DomainError` reads the brand instead; a subclass keeps the ordinary check.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    if (this !== DomainError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return (
      typeof value === 'object' && value !== null && (value as { [DOMAIN_ERROR]?: boolean })[DOMAIN_ERROR] === true
    );
  }

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly facts: ErrorFacts = {},
  ) {
    super(message);
  }
}

// On the prototype, not on each error: no own property that equality checks or copies would see.
Object.defineProperty(DomainError.prototype, DOMAIN_ERROR, { value: true });

export const invalidInput = (message: string, errors?: FieldError[]) =>
  new DomainError('INVALID_INPUT', message, errors ? { errors } : undefined);

export const fieldError = (field: string, message: string, constraint?: FieldError['constraint']) =>
  invalidInput(message, [{ field, message, ...(constraint ? { constraint } : {}) }]);

export const notFound = (code: Extract<ErrorCode, `${string}NOT_FOUND`>, what: string) =>
  new DomainError(code, `${what} not found`);

export const conflict = (message: string, details?: Record<string, unknown>) =>
  new DomainError('CONFLICT', message, details);
