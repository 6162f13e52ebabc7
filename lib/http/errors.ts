import { DomainError, type ErrorCode } from '../core/errors';

// The one error table: every code the API answers with, and its HTTP status. Codes and statuses
// are the interface specification's (Errors part), completed from the reference's Error4xx enums.
export const ERROR_STATUS: Record<ErrorCode, number> = {
  // 400
  INVALID_INPUT: 400,
  END_USER_TERMS_VERSION_NOT_FOUND: 400,
  MISSING_MANDATORY_USER_INFO: 400,
  INVITATION_ALREADY_CLAIMED: 400,
  INVITATIONS_NOT_CONFIGURED: 400,
  INVALID_UMA_ADDRESS: 400,
  INVITATION_CANCELLED: 400,
  QUOTE_REQUEST_FAILED: 400,
  INVALID_PAYREQ_RESPONSE: 400,
  INVALID_RECEIVER: 400,
  PARSE_PAYREQ_RESPONSE_ERROR: 400,
  CERT_CHAIN_INVALID: 400,
  CERT_CHAIN_EXPIRED: 400,
  INVALID_PUBKEY_FORMAT: 400,
  MISSING_REQUIRED_UMA_PARAMETERS: 400,
  SENDER_NOT_ACCEPTED: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  INVALID_CURRENCY: 400,
  INVALID_TIMESTAMP: 400,
  INVALID_NONCE: 400,
  INVALID_REQUEST_FORMAT: 400,
  INVALID_BANK_ACCOUNT: 400,
  SELF_PAYMENT: 400,
  LOOKUP_REQUEST_FAILED: 400,
  PARSE_LNURLP_RESPONSE_ERROR: 400,
  INVALID_AMOUNT: 400,
  WEBHOOK_ENDPOINT_NOT_SET: 400,
  WEBHOOK_DELIVERY_ERROR: 400,
  LOW_QUALITY: 400,
  DATA_MISMATCH: 400,
  EXPIRED: 400,
  SUSPECTED_FRAUD: 400,
  UNSUITABLE_DOCUMENT: 400,
  INCOMPLETE: 400,
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: 400,
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: 400,
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: 400,
  STABLECOIN_PROVIDER_ACCOUNT_INVALID: 400,
  STABLECOIN_PROVIDER_ACCOUNT_REVOKED: 400,
  STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED: 400,
  CARDHOLDER_KYC_NOT_APPROVED: 400,
  TRANSACTION_SIZE_LIMIT_EXCEEDED: 400,
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED: 400,
  INSUFFICIENT_FUNDS: 400,
  // 401
  UNAUTHORIZED: 401,
  INVALID_SIGNATURE: 401,
  WALLET_SIGNATURE_MISSING: 401,
  WALLET_SIGNATURE_MALFORMED: 401,
  WALLET_SIGNATURE_BODY_MISMATCH: 401,
  WALLET_SIGNATURE_INVALID: 401,
  REQUEST_ID_MISSING: 401,
  // 403
  FORBIDDEN: 403,
  USER_NOT_READY: 403,
  COUNTERPARTY_NOT_ALLOWED: 403,
  VELOCITY_LIMIT_EXCEEDED: 403,
  END_USER_TERMS_NOT_ACCEPTED: 403,
  // 404
  TRANSACTION_NOT_FOUND: 404,
  INVITATION_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  QUOTE_NOT_FOUND: 404,
  LOOKUP_REQUEST_NOT_FOUND: 404,
  TOKEN_NOT_FOUND: 404,
  BULK_UPLOAD_JOB_NOT_FOUND: 404,
  REFERENCE_NOT_FOUND: 404,
  UMA_NOT_FOUND: 404,
  STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND: 404,
  // 405, 408, 409, 410, 412, 415, 423, 424, 429, 431
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REQUEST_HEADERS_TOO_LARGE: 431,
  TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL: 409,
  TRANSACTION_NOT_CANCELLABLE: 409,
  UMA_ADDRESS_EXISTS: 409,
  EMAIL_OTP_EMAIL_ALREADY_EXISTS: 409,
  EMAIL_OTP_CREDENTIAL_SET_CHANGED: 409,
  PASSKEY_ALREADY_ENROLLED: 409,
  SCA_SESSION_REQUIRED: 409,
  BENEFICIARY_TRUSTED: 409,
  INVALID_STATE_TRANSITION: 409,
  CARD_ALREADY_CLOSED: 409,
  CARD_NOT_MUTABLE: 409,
  CONFLICT: 409,
  CUSTOMER_DELETED: 410,
  UNSUPPORTED_UMA_VERSION: 412,
  ACCOUNT_LOCKED: 423,
  PAYREQ_REQUEST_FAILED: 424,
  COUNTERPARTY_PUBKEY_FETCH_ERROR: 424,
  NO_COMPATIBLE_UMA_VERSION: 424,
  LNURLP_REQUEST_FAILED: 424,
  EMAIL_OTP_CREDENTIAL_SYNC_FAILED: 424,
  RATE_LIMITED: 429,
  DAILY_VOLUME_LIMIT_EXCEEDED: 429,
  // 5xx
  INTERNAL_ERROR: 500,
  SERVICE_SWITCH_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY: 501,
  SERVICE_UNAVAILABLE: 503,
};

/** The error body every answer under the base path carries: `{status, code, message, details?}`. */
// Domain codes the specification's enumerations lack, answered as the specified code they
// refine with the domain's code in details.reason: the specification enumerates the 400 codes
// (Errors part; the reference's Error400 enum) and INSUFFICIENT_FUNDS is not among them.
const WIRE_CODE: Partial<Record<ErrorCode, ErrorCode>> = { INSUFFICIENT_FUNDS: 'INVALID_INPUT' };

export function errorBody(err: DomainError) {
  const status = ERROR_STATUS[err.code];
  const wire = WIRE_CODE[err.code];
  if (wire) return { status, code: wire, message: err.message, details: { ...err.details, reason: err.code } };
  return { status, code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
}

// The `x-should-retry` hint on every error answer, read by generated clients instead of their
// status-based default (which retries every 409 and 408, and so repeated permanent refusals such
// as a duplicate customer). A retry helps where the cause passes by itself within a client's
// back-off of seconds: a timeout, rate limiting, a server error (nothing was committed: 5xx
// answers are never stored under an Idempotency-Key) or a counterparty that failed to answer.
const RETRY_HELPS = new Set<ErrorCode>([
  'REQUEST_TIMEOUT',
  'RATE_LIMITED',
  'QUOTE_REQUEST_FAILED', // the specification calls it retryable
  'LOOKUP_REQUEST_FAILED',
  'LNURLP_REQUEST_FAILED',
  'PAYREQ_REQUEST_FAILED',
  'COUNTERPARTY_PUBKEY_FETCH_ERROR',
  'EMAIL_OTP_CREDENTIAL_SYNC_FAILED',
]);
// Server-side answers that are permanent: a retry meets the same missing feature.
const RETRY_CANNOT_HELP = new Set<ErrorCode>(['NOT_IMPLEMENTED', 'UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY']);

/**
 * Whether retrying the same request can succeed. A thrower that knows better says so
 * (`facts.retryable`), as for a request whose Idempotency-Key is still in progress.
 */
export function shouldRetry(err: DomainError): boolean {
  if (err.facts.retryable !== undefined) return err.facts.retryable;
  if (RETRY_HELPS.has(err.code)) return true;
  if (RETRY_CANNOT_HELP.has(err.code)) return false;
  return ERROR_STATUS[err.code] >= 500;
}

/** A refusal made by the edge itself, with the HTTP headers that belong to it (Allow, Accept-Encoding). */
export class EdgeError extends DomainError {
  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> | undefined,
    readonly headers: Record<string, string>,
  ) {
    super(code, message, details);
  }
}

/** The answer headers a refusal carries besides the retry hint: the edge's own, and Retry-After. */
export function errorHeaders(err: DomainError): Record<string, string> {
  const headers: Record<string, string> = err instanceof EdgeError ? { ...err.headers } : {};
  if (err.facts.retryAfterSeconds !== undefined) headers['retry-after'] = String(err.facts.retryAfterSeconds);
  return headers;
}

/** 409 for a request whose Idempotency-Key another request still holds: waiting helps. */
export function stillInProgress(message: string): DomainError {
  return new DomainError('CONFLICT', message, undefined, { retryable: true, retryAfterSeconds: 1 });
}
