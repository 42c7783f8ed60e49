import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Config } from '../../config/settings.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import type { LoginMeta, SignInService } from '../auth/sign-in.service.js';
import * as users from '../users/lookup.js';
import { consumeChallenge, insertChallenge, type ConsumedChallenge } from './challenges.repo.js';
import { beginAnswer, CEREMONY_TIMEOUT_MS, CHALLENGE_LIFETIME, challengeMatches, signedChallengeHash } from './ceremony.js';
import { expectedOrigins } from './origins.js';
import * as repo from './passkeys.repo.js';
import type { AuthenticateCompleteInput } from './passkeys.schemas.js';
import { webauthn } from './webauthn.js';

type Deps = { db: Db; clock: Clock; config: Config; audit: AuditService; signIn: SignInService };


/** No account has this id: an unknown address costs the same credential lookup as a known one. */
const NOBODY = -1;

/**
 * docs/passkeys.md "Signing in" and docs/decisions.md "Passkeys": begin (with an address: its credentials; without: resident-key
 * mode), complete (verify the assertion, the counter and the backup flag), then every check of a password login.
 */
export function createPasskeyAuthenticationService({ db, clock, config, audit, signIn }: Deps) {
  async function begin(email: string | undefined, applicationId: number | null) {
    const user = email === undefined ? undefined : await users.findUserForLogin(db, { email: email.trim().toLowerCase() });
    const credentials = email === undefined ? [] : await repo.credentialIdsOf(db, user?.id ?? NOBODY, true);
    if (email !== undefined && !user) throw new AppError('USER_NOT_FOUND', { status: 400 });
    // Resident-key mode and accounts with 2FA need the authenticator to verify the person: the passkey is both factors.
    const userVerification = !user || user.is_2fa_enabled ? 'required' : 'preferred';
    const options = await (await webauthn()).generateAuthenticationOptions({
      rpID: config.WEBAUTHN_RP_ID, timeout: CEREMONY_TIMEOUT_MS, userVerification,
      allowCredentials: credentials.map((c) => ({ id: c.credential_id, transports: c.transports as never })),
    });
    const { id } = await insertChallenge(db, { challengeHash: sha256Hex(options.challenge), purpose: 'authenticate',
      userId: user?.id ?? null, userVerification, applicationId, expiresAt: addSeconds(clock.now(), CHALLENGE_LIFETIME) });
    const { challenge, rpId, allowCredentials, timeout } = options;
    return beginAnswer({ challenge, rpId, allowCredentials: allowCredentials ?? [], userVerification, timeout }, Number(id));
  }

  /** The credential an assertion names, if it may answer this challenge: 401 AUTH_FAILED otherwise. */
  async function credentialFor(challenge: ConsumedChallenge, credential: AuthenticationResponseJSON) {
    const row = typeof credential.id === 'string' ? await repo.findByCredentialId(db, credential.id) : undefined;
    if (!row || !row.is_active) throw new AppError('AUTH_FAILED');
    if (challenge.user_id !== null && row.user_id !== challenge.user_id) throw new AppError('AUTH_FAILED');
    // Resident-key mode: the authenticator names the account, and it must be the credential's.
    if (challenge.user_id === null && credential.response?.userHandle !== row.user_handle) throw new AppError('AUTH_FAILED');
    return row;
  }

  async function verify(challenge: ConsumedChallenge, hash: string, row: repo.CredentialRow, credential: AuthenticationResponseJSON,
    allowedOrigins: readonly string[]) {
    try {
      // The counter is checked below, where a regression can be told apart from a bad assertion.
      const { verified, authenticationInfo } = await (await webauthn()).verifyAuthenticationResponse({
        response: credential, expectedChallenge: challengeMatches(hash), expectedOrigin: expectedOrigins(config, allowedOrigins),
        expectedRPID: config.WEBAUTHN_RP_ID, requireUserVerification: challenge.user_verification === 'required',
        credential: { id: row.credential_id, publicKey: new Uint8Array(row.public_key), counter: 0 },
      });
      if (verified) return authenticationInfo;
    } catch {
      // Answered below.
    }
    throw new AppError('INVALID_ASSERTION');
  }

  /**
   * The account an assertion proves, once the challenge, the signature, the counter and the backup flag verify and the
   * account may sign in; each refusal is recorded as a failed attempt.
   */
  async function verifiedAccount(credential: AuthenticationResponseJSON, challengeId: number | undefined, applicationId: number | null,
    allowedOrigins: readonly string[], meta: LoginMeta) {
    const hash = signedChallengeHash(credential.response?.clientDataJSON);
    const challenge = hash && await consumeChallenge(db, { challengeHash: hash, purpose: 'authenticate', id: challengeId, now: clock.now() });
    // A challenge is redeemed through the application it was issued to, like the tokens it leads to.
    if (!hash || !challenge || (config.APPLICATION_AUTH_ENABLED && challenge.application_id !== applicationId)) {
      throw new AppError('INVALID_ASSERTION');
    }
    const row = await credentialFor(challenge, credential);
    const user = (await users.findUserForLoginById(db, row.user_id))!;
    const identifier = user.email ?? `passkey:${row.id}`;
    let info: Awaited<ReturnType<typeof verify>>;
    try {
      info = await verify(challenge, hash, row, credential, allowedOrigins);
      await checkCounterAndBackup(row, info, meta);
      if (user.is_2fa_enabled && !info.userVerified) throw new AppError('INVALID_ASSERTION');
    } catch (err) {
      if (err instanceof AppError) await signIn.failed(identifier, meta, user.id, 'invalid_assertion');
      throw err;
    }
    await signIn.admitAccount(user, identifier, meta, () => new AppError('AUTH_FAILED'));
    return { user, identifier, row, secondFactor: info.userVerified ? 'passkey' as const : undefined };
  }

  /** POST webauthn/authenticate/complete/: `access` and `refresh` (docs/passkeys.md "Signing in") plus the usual token response. */
  async function complete(input: AuthenticateCompleteInput, applicationId: number | null, allowedOrigins: readonly string[],
    meta: LoginMeta) {
    // The body schema checks the credential's outline only (passkeys.schemas.ts): what it holds is verified below, so
    // until then every field is read as possibly missing or malformed, whatever the library's type says.
    const { user, identifier, row, secondFactor } = await verifiedAccount(input.credential as AuthenticationResponseJSON, input.challenge_id,
      applicationId, allowedOrigins, meta);
    const body = await signIn.completeLogin(user, identifier, input.device_info, meta, secondFactor);
    // During a deletion's grace period there is no refresh token (docs/decisions.md "Account deletion").
    return { ...body, access: body.access_token, refresh: 'refresh_token' in body ? body.refresh_token : null, message: 'Login successful', credential_used: row.device_name };
  }

  /**
   * A passkey on the authorization server's sign-in page (docs/oauth.md "Sign-in and consent"): the same checks, no
   * session. A passkey that verified the person is both factors; one that did not is refused for an account with 2FA.
   */
  async function completeForProvider(credential: AuthenticationResponseJSON, meta: LoginMeta) {
    const { user, identifier, secondFactor } = await verifiedAccount(credential, undefined, null, [], meta);
    return { user, identifier, outcome: await signIn.completeProviderSignIn(user, identifier, meta, secondFactor) };
  }

  /**
   * docs/decisions.md "Passkeys": a sign counter that does not grow (when either is non-zero) is a cloned authenticator —
   * refused and audited as critical; a backup-eligible flag unlike the one registered is refused. The use is recorded
   * only while the counter still moves forward, so of two parallel uses of one value, one wins.
   */
  async function checkCounterAndBackup(row: repo.CredentialRow, info: { newCounter: number; credentialDeviceType: string;
    credentialBackedUp: boolean }, meta: LoginMeta) {
    const stored = Number(row.sign_count);
    if ((info.newCounter > 0 || stored > 0) && info.newCounter <= stored) {
      await audit.record({ event_type: 'passkey_counter_regression', severity: 'critical', user_id: row.user_id,
        application_id: meta.applicationId, ip_address: meta.ip, user_agent: meta.userAgent,
        details: { credential_id: row.id, stored_counter: stored, presented_counter: info.newCounter } });
      throw new AppError('INVALID_ASSERTION');
    }
    if (info.credentialDeviceType !== row.device_type) throw new AppError('INVALID_ASSERTION');
    if (!(await repo.recordUse(db, row.id, info.newCounter, info.credentialBackedUp, clock.now()))) throw new AppError('INVALID_ASSERTION');
  }

  return { begin, complete, completeForProvider };
}

export type PasskeyAuthenticationService = ReturnType<typeof createPasskeyAuthenticationService>;
