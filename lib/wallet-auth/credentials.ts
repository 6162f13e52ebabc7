import { now } from '../core/clock';
import { isUniqueViolation, pgMessage, transaction, type Tx, db } from '../core/db';
import { DomainError, invalidInput, notFound } from '../core/errors';
import { newId } from '../core/ids';
import { checkOidcToken, type OidcIdentity } from './oidc';
import { sha256Hex } from '../core/crypto/secrets';
import {
  acceptSignedRetry,
  bindRequest,
  issueChallenge,
  retryHeaders,
  signedAction,
  type Challenge,
  type SignedRequest,
} from './signed-retry';
import { verifyPasskeyRegistration, type RegisteredPasskey } from './webauthn';
import type { InternalAccountRow } from '../accounts/repository';
import * as customers from '../customers/repository';
import { walletAccount } from './accounts';
import { issueOtp, WALLET_OTP } from './otp';
import { retire } from '../codes/service';
import { toAuthMethod, type AuthMethod } from './presenter';
import * as repo from './repository';
import type { CredentialCreate } from './schema';

// Credentials of an embedded wallet: add (signed by a session of an existing credential),
// list, revoke (signed by a session of another credential). The rules of the specification:
//   1. revoking needs a session of a different credential on the account;
//   2. one credential must remain;
//   3. at most one EMAIL_OTP and one SMS_OTP, distinct passkeys, one OAUTH per provider identity
//      (checked here with their error codes, and by partial unique indexes underneath);
//   4. a wallet starts with the EMAIL_OTP of the customer's email (lib/accounts opens it).

/** What a create request will insert, checked before any challenge is issued. */
type Prepared =
  | { type: 'EMAIL_OTP'; email: string }
  | { type: 'SMS_OTP'; phoneNumber: string }
  | { type: 'OAUTH'; identity: OidcIdentity }
  | { type: 'PASSKEY'; nickname: string; passkey: RegisteredPasskey; challengeHash: string };

const exists = {
  EMAIL_OTP: () =>
    new DomainError(
      'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
      'This account already has an EMAIL_OTP credential (one per account)',
    ),
  SMS_OTP: () =>
    new DomainError(
      'SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
      'This account already has an SMS_OTP credential (one per account)',
    ),
  PASSKEY: () =>
    new DomainError(
      'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
      'This WebAuthn credential id is already registered on the account',
    ),
  OAUTH: () =>
    invalidInput('This OAuth identity (issuer and subject) is already registered on the account', [
      { field: 'oidcToken', message: 'identity already registered' },
    ]),
};
const challengeUsed = () =>
  new DomainError('UNAUTHORIZED', 'This WebAuthn registration challenge was already used', {
    reason: 'Registration challenge already used',
  });

async function prepare(platformId: string, account: InternalAccountRow, body: CredentialCreate): Promise<Prepared> {
  switch (body.type) {
    case 'EMAIL_OTP':
    case 'SMS_OTP': {
      const contact = account.customerId ? await customers.findById(platformId, account.customerId, db()) : null;
      const value = body.type === 'EMAIL_OTP' ? contact?.email : contact?.phoneNumber;
      if (!value) {
        const what = body.type === 'EMAIL_OTP' ? 'an email' : 'a phone number';
        throw invalidInput(`The account's customer has no ${what} on file for a ${body.type} credential`, [
          { field: 'type', message: `the customer needs ${what}` },
        ]);
      }
      return body.type === 'EMAIL_OTP' ? { type: 'EMAIL_OTP', email: value } : { type: 'SMS_OTP', phoneNumber: value };
    }
    case 'OAUTH':
      return { type: 'OAUTH', identity: await checkOidcToken(body.oidcToken) };
    case 'PASSKEY':
      return {
        type: 'PASSKEY',
        nickname: body.nickname,
        passkey: await verifyPasskeyRegistration(body.challenge, body.attestation),
        challengeHash: sha256Hex(body.challenge),
      };
  }
}

/** Rule 3 against the account's current credentials (and the registration challenge's single use). */
async function checkUnique(tx: Tx, platformId: string, current: repo.AuthMethodRow[], p: Prepared): Promise<void> {
  if ((p.type === 'EMAIL_OTP' || p.type === 'SMS_OTP') && current.some((c) => c.type === p.type))
    throw exists[p.type]();
  if (p.type === 'PASSKEY' && current.some((c) => c.type === 'PASSKEY' && c.credentialId === p.passkey.credentialId))
    throw exists.PASSKEY();
  if (
    p.type === 'OAUTH' &&
    current.some((c) => c.type === 'OAUTH' && c.oidcIssuer === p.identity.iss && c.oidcSubject === p.identity.sub)
  )
    throw exists.OAUTH();
  if (p.type === 'PASSKEY' && (await repo.registrationChallengeUsed(platformId, p.challengeHash, tx)))
    throw challengeUsed();
}

/**
 * The error of a credential insert that lost a race with a concurrent addition: the partial unique
 * index it violated (rule 3), by the name PostgreSQL reports, says which rule. Nothing more can be
 * read in the transaction by then (PostgreSQL aborted it). Null when `err` is not a unique violation.
 */
export function duplicateError(err: unknown, type: Prepared['type']): DomainError | null {
  if (!isUniqueViolation(err)) return null;
  switch (/unique constraint "([^"]+)"/.exec(pgMessage(err) ?? '')?.[1]) {
    case 'AuthMethod_registration_challenge':
      return challengeUsed();
    case 'AuthMethod_passkey_per_account':
      return exists.PASSKEY();
    case 'AuthMethod_oauth_identity_per_account':
      return exists.OAUTH();
    default: // AuthMethod_one_otp_per_account, or no name reported: the rule of the type inserted
      return exists[type]();
  }
}

function activity(accountId: string, body: CredentialCreate, p: Prepared) {
  switch (p.type) {
    case 'EMAIL_OTP':
      return { type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL', parameters: { userEmail: p.email, userId: accountId } };
    case 'SMS_OTP':
      return {
        type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
        parameters: { userPhoneNumber: p.phoneNumber, userId: accountId },
      };
    case 'OAUTH':
      return {
        type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
        parameters: {
          oauthProviders: [{ oidcToken: (body as { oidcToken: string }).oidcToken, providerName: p.identity.iss }],
          userId: accountId,
        },
      };
    case 'PASSKEY': {
      const b = body as Extract<CredentialCreate, { type: 'PASSKEY' }>;
      return {
        type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
        parameters: {
          authenticators: [
            {
              attestation: b.attestation,
              authenticatorName: p.nickname,
              challenge: b.challenge,
              transports: b.attestation.transports ?? [],
            },
          ],
          userId: accountId,
        },
      };
    }
  }
}

async function insert(
  tx: Tx,
  platformId: string,
  accountId: string,
  p: Prepared,
): Promise<{ row: repo.AuthMethodRow; otp?: Awaited<ReturnType<typeof issueOtp>> }> {
  const at = now();
  const base = { id: newId('AuthMethod'), platformId, accountId, type: p.type, createdAt: at, updatedAt: at };
  let row: repo.AuthMethodRow;
  try {
    row = await repo.insertCredential(
      p.type === 'EMAIL_OTP'
        ? { ...base, email: p.email, nickname: p.email }
        : p.type === 'SMS_OTP'
          ? { ...base, phoneNumber: p.phoneNumber, nickname: p.phoneNumber }
          : p.type === 'OAUTH'
            ? {
                ...base,
                nickname: p.identity.email ?? p.identity.sub,
                oidcIssuer: p.identity.iss,
                oidcAudience: p.identity.aud,
                oidcSubject: p.identity.sub,
              }
            : {
                ...base,
                nickname: p.nickname,
                credentialId: p.passkey.credentialId,
                credentialPublicKey: p.passkey.publicKey,
                signCount: BigInt(p.passkey.counter),
                transports: p.passkey.transports,
                registrationChallengeHash: p.challengeHash,
              },
      tx,
    );
  } catch (err) {
    // A concurrent addition committed the same credential after checkUnique read.
    throw duplicateError(err, p.type) ?? err;
  }
  // The OTP of a new OTP credential is triggered by its registration.
  const otp = p.type === 'EMAIL_OTP' || p.type === 'SMS_OTP' ? await issueOtp(tx, row) : undefined;
  return { row, otp };
}

/** POST /auth/credentials. First call 202 (unless the account has no credential); signed retry 201. */
export async function add(
  platformId: string,
  body: CredentialCreate,
  request: SignedRequest,
): Promise<Challenge | AuthMethod> {
  const account = await walletAccount(platformId, body.accountId, db());
  const prepared = await prepare(platformId, account, body);
  const binding = bindRequest(request);
  const headers = retryHeaders(request);
  const result = await transaction(async (tx) => {
    // The account's credentials, read once: rule 3 is checked before any challenge is issued or
    // signature considered, and the unique indexes settle a race with a concurrent addition.
    const current = await repo.activeCredentials(platformId, account.id, tx);
    await checkUnique(tx, platformId, current, prepared);
    if (current.length && !headers) {
      return issueChallenge(tx, {
        platformId,
        kind: 'AUTH_CREDENTIAL_CREATE',
        binding,
        accountIds: [account.id],
        type: prepared.type,
        activity: activity(account.id, body, prepared),
      });
    }
    // An account without any credential has no session to sign with: the first one is added directly.
    if (current.length)
      await acceptSignedRetry(tx, { platformId, kind: 'AUTH_CREDENTIAL_CREATE', binding, headers: headers! });
    return insert(tx, platformId, account.id, prepared);
  });
  if ('payloadToSign' in result) return result;
  await result.otp?.deliver();
  return toAuthMethod(
    result.row,
    result.otp ? { otpEncryptionTargetBundle: result.otp.otpEncryptionTargetBundle } : {},
  );
}

export async function list(platformId: string, accountId: string): Promise<{ data: AuthMethod[] }> {
  return { data: (await repo.activeCredentials(platformId, accountId, db())).map((r) => toAuthMethod(r)) };
}

const lastOne = (id: string) =>
  invalidInput(
    `Credential ${id} is the account's only credential; an account must keep at least one (add another first)`,
    [{ field: 'id', message: 'the last credential cannot be revoked' }],
  );

/** DELETE /auth/credentials/{id}: signed by a session of another credential; ends the credential's sessions. */
export async function revoke(platformId: string, id: string, request: SignedRequest): Promise<Challenge | null> {
  const credential = await repo.findCredential(platformId, id, db());
  if (!credential) throw notFound('REFERENCE_NOT_FOUND', `Credential ${id}`);
  if ((await repo.activeCredentials(platformId, credential.accountId, db())).length < 2) throw lastOne(id);
  return signedAction(
    request,
    {
      platformId,
      kind: 'AUTH_CREDENTIAL_REVOKE',
      accountIds: [credential.accountId],
      type: credential.type as AuthMethod['type'],
      signer: { excludeAuthMethodId: id },
      activity: {
        type: 'ACTIVITY_TYPE_DELETE_AUTHENTICATION_METHOD',
        parameters: { credentialId: id, userId: credential.accountId },
      },
    },
    async (tx) => {
      // The account's credentials locked together, so two concurrent revocations cannot leave zero.
      const locked = await repo.lockActiveCredentials(platformId, credential.accountId, tx);
      if (!locked.some((c) => c.id === id)) throw notFound('REFERENCE_NOT_FOUND', `Credential ${id}`);
      if (locked.length < 2) throw lastOne(id);
      const at = now();
      await repo.revokeCredential(id, at, tx);
      await repo.revokeSessionsOfCredential(id, at, tx);
      await repo.closeOtpChallenges(id, at, tx);
      await retire(tx, WALLET_OTP, id);
      return null;
    },
  );
}
