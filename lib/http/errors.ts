// The one error table: every code the API answers with, and its HTTP status. Codes and statuses
// are the interface specification's (Errors part), completed from the reference's Error4xx enums.
export const ERROR_STATUS = {
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
  // 405, 409, 410, 412, 423, 424, 429
  METHOD_NOT_ALLOWED: 405,
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
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One field problem, reported in `details.errors[]` (dot-notation `field`). */
export interface FieldError {
  field: string;
  constraint?: { format?: string; pattern?: string; enum?: string[]; minLength?: number; maxLength?: number };
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  body() {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export const invalidInput = (message: string, errors?: FieldError[]) =>
  new ApiError('INVALID_INPUT', message, errors ? { errors } : undefined);

export const fieldError = (field: string, message: string, constraint?: FieldError['constraint']) =>
  invalidInput(message, [{ field, message, ...(constraint ? { constraint } : {}) }]);

export const notFound = (code: Extract<ErrorCode, `${string}NOT_FOUND`>, what: string) =>
  new ApiError(code, `${what} not found`);

export const conflict = (message: string, details?: Record<string, unknown>) =>
  new ApiError('CONFLICT', message, details);
