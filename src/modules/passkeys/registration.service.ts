import { randomBytes } from 'node:crypto';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Config } from '../../config/settings.js';
import { addSeconds, toIso, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import type { RequestMeta } from '../../core/request-meta.js';
import type { SecurityNoticeService } from '../users/security-notices.service.js';
import { consumeChallenge, insertChallenge } from './challenges.repo.js';
import { ALGORITHMS, beginAnswer, CEREMONY_TIMEOUT_MS, CHALLENGE_LIFETIME, challengeMatches, MAX_CREDENTIAL_ID_BYTES,
  signedChallengeHash } from './ceremony.js';
import { expectedOrigins } from './origins.js';
import * as repo from './passkeys.repo.js';
import type { RegisterCompleteInput } from './passkeys.schemas.js';
import { webauthn } from './webauthn.js';

type Deps = { db: Db; clock: Clock; config: Config; audit: AuditService; notices: SecurityNoticeService };

export interface Registrant { id: number; email: string | null; username: string | null; first_name: string; last_name: string }

export type Attachment = 'platform' | 'cross-platform' | 'any';


const invalid = () => new AppError('INVALID_CREDENTIAL');

/**
 * docs/passkeys.md "Registering a passkey" and docs/decisions.md "Passkeys": begin (options and a stored challenge),
 * complete (verify, record).
 */
export function createPasskeyRegistrationService({ db, clock, config, audit, notices }: Deps) {
  async function begin(user: Registrant, applicationId: number | null, attachment: Attachment = 'platform') {
    const existing = await repo.credentialIdsOf(db, user.id, false);
    // One handle per account, kept by its credentials: an authenticator replaces its passkey for the same account.
    const handle = existing[0] ? Buffer.from(existing[0].user_handle, 'base64url') : randomBytes(32);
    const userName = user.email ?? user.username ?? `user-${user.id}`;
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: config.WEBAUTHN_RP_NAME, rpID: config.WEBAUTHN_RP_ID, userName, userID: new Uint8Array(handle),
      userDisplayName: `${user.first_name} ${user.last_name}`.trim() || userName, timeout: CEREMONY_TIMEOUT_MS, attestationType: 'none',
      excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: c.transports })),
      authenticatorSelection: { ...(attachment === 'any' ? {} : { authenticatorAttachment: attachment }), residentKey: 'preferred',
        requireResidentKey: false, userVerification: 'preferred' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    const { id } = await insertChallenge(db, { challengeHash: sha256Hex(options.challenge), purpose: 'register', userId: user.id,
      userHandle: handle.toString('base64url'), userVerification: 'preferred', applicationId, expiresAt: addSeconds(clock.now(), CHALLENGE_LIFETIME) });
    return beginAnswer(options, Number(id));
  }

  /** 400 INVALID_CREDENTIAL for anything that does not verify, 400 DUPLICATE_CREDENTIAL for a credential already registered. */
  async function complete(userId: number, input: RegisterCompleteInput, allowedOrigins: readonly string[], meta: RequestMeta) {
    // The body schema checks the credential's outline only (passkeys.schemas.ts): what it holds is verified below, so
    // until then every field is read as possibly missing or malformed, whatever the library's type says.
    const credential = input.credential as RegistrationResponseJSON;
    const hash = signedChallengeHash(credential.response?.clientDataJSON);
    if (!hash) throw invalid();
    const challenge = await consumeChallenge(db, { challengeHash: hash, purpose: 'register', userId, id: input.challenge_id, now: clock.now() });
    if (!challenge) throw invalid();
    let info;
    try {
      const verified = await (await webauthn()).verifyRegistrationResponse({
        response: credential, expectedChallenge: challengeMatches(hash), expectedOrigin: expectedOrigins(config, allowedOrigins),
        expectedRPID: config.WEBAUTHN_RP_ID, requireUserPresence: true, requireUserVerification: false, supportedAlgorithmIDs: ALGORITHMS,
      });
      if (!verified.verified) throw invalid();
      info = verified.registrationInfo;
    } catch {
      throw invalid();
    }
    if (Buffer.from(info.credential.id, 'base64url').length > MAX_CREDENTIAL_ID_BYTES) throw invalid();
    const attachment = credential.authenticatorAttachment;
    // The account hears of every passkey added, in the transaction that adds it.
    const row = await db.transaction().execute(async (trx) => {
      const added = await repo.insertCredential(trx, {
        user_id: userId, credential_id: info.credential.id, public_key: Buffer.from(info.credential.publicKey),
        user_handle: challenge.user_handle!, sign_count: info.credential.counter,
        transports: (credential.response.transports ?? []).filter((t) => typeof t === 'string').slice(0, 8),
        device_name: input.device_name?.trim() || 'Passkey', device_type: info.credentialDeviceType, backed_up: info.credentialBackedUp,
        authenticator_type: attachment === 'platform' || attachment === 'cross-platform' ? attachment : null,
        is_resident_key: credential.clientExtensionResults?.credProps?.rk === true, aaguid: info.aaguid,
      });
      if (added) await notices.passkeyAdded(trx, userId);
      return added;
    });
    if (!row) throw new AppError('DUPLICATE_CREDENTIAL');
    notices.deliver();
    await audit.record({ event_type: 'passkey_registered', user_id: userId, application_id: meta.applicationId, ip_address: meta.ip,
      user_agent: meta.userAgent, details: { credential_id: row.id, device_type: row.device_type } });
    return { id: row.id, name: row.device_name, device_name: row.device_name, created_at: toIso(row.created_at)!, last_used_at: toIso(row.last_used_at), device_type: row.device_type,
      is_active: row.is_active };
  }

  return { begin, complete };
}

export type PasskeyRegistrationService = ReturnType<typeof createPasskeyRegistrationService>;
