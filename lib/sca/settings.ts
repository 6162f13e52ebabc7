// Settings of Strong Customer Authentication, read per call (a changed environment applies at once).

/** How long an SCA login session lasts: CORRIDOR_SCA_SESSION_SECONDS, default 30 minutes. */
export function sessionSeconds(): number {
  const n = Number(process.env.CORRIDOR_SCA_SESSION_SECONDS);
  return Number.isInteger(n) && n > 0 ? n : 30 * 60;
}

/**
 * Whether authorizing a money movement (POST /quotes/{id}/authorize) also needs a live SCA login
 * session (CORRIDOR_SCA_SESSION_REQUIRED=1; the reference's 409 SCA_SESSION_REQUIRED). Off by
 * default: the per-transaction challenge is itself strong authentication, and integrations built
 * before SCA logins existed authorize quotes without one.
 */
export function sessionRequiredForPayments(): boolean {
  return process.env.CORRIDOR_SCA_SESSION_REQUIRED === '1';
}
