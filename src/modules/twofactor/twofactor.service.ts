import QRCode from 'qrcode';
import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db, Executor } from '../../db/database.js';
import type { PasswordVerifier } from '../users/password-verifier.js';
import type { Sealer } from '../../security/seal.js';
import { base32Decode, matchTotpStep, newTotpSecret, provisioningUri } from '../../security/totp.js';
import type { AuditService } from '../audit/audit.service.js';
import type { LockoutService, LockTarget } from '../auth/lockout.service.js';
import type { RequestMeta } from '../../core/request-meta.js';
import type { SecurityNoticeService } from '../users/security-notices.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import { backupCodeHash, newBackupCodes } from './backup-codes.js';
import * as repo from './twofactor.repo.js';

type Deps = {
  db: Db; clock: Clock; config: Config; verifyPassword: PasswordVerifier['verify']; audit: AuditService; lockout: LockoutService;
  /** Seals TOTP secrets at rest (AES-256-GCM under a key kept for this use only). */
  sealer: Sealer;
  /** HMAC key of the stored backup-code hashes (modules/encryption/backup-code-key.ts: it survives a key rotation). */
  codeKey: () => Promise<Buffer>;
  events: WebhookEvents;
  notices: SecurityNoticeService;
};

/** The account a 2FA call is about (the bearer's user satisfies it). */
export interface TwoFactorUser {
  id: number;
  email: string | null;
  phone: string | null;
  username: string | null;
}

const TOTP_CODE = /^\d{6}$/;
/** Authenticator apps show `123 456`; people type it with the space. */
const compact = (code: string) => code.replace(/\s/g, '');

type CheckState = NonNullable<Awaited<ReturnType<typeof repo.findCheckState>>>;

/** docs/authentication.md "Two-factor authentication". */
export function createTwoFactorService({ db, clock, config, verifyPassword, audit, lockout, sealer, codeKey, events, notices }: Deps) {
  const notEnabled = () => new AppError('INVALID_CODE', { message: 'Two-factor authentication is not enabled' });

  /** A TOTP code of the active secret, accepted once: its time step must be later than the last one used. */
  async function acceptTotp(userId: number, code: string): Promise<boolean> {
    const credential = await repo.findCredential(db, userId);
    if (!credential?.secret_sealed) return false;
    const now = clock.now();
    const step = matchTotpStep(base32Decode(sealer.open(credential.secret_sealed)), code, now, config.TOTP_VALID_WINDOW);
    if (step === null || (credential.last_step !== null && step <= credential.last_step)) return false;
    // The read above only saves a write; the conditional UPDATE decides, so parallel submissions of one code
    // succeed exactly once (RFC 6238 §5.2: a verifier must not accept the same OTP twice).
    return !!(await repo.takeStep(db, userId, credential.secret_sealed, step, now));
  }

  /** A backup code, consumed in one statement: single use even under concurrent submissions. */
  const acceptBackupCode = async (userId: number, code: string) =>
    !!(await repo.consumeBackupCode(db, userId, backupCodeHash(await codeKey(), userId, code), clock.now()));

  /** A six-digit code is read as TOTP, anything else as a backup code. */
  async function acceptAnyCode(userId: number, code: string): Promise<boolean> {
    const typed = compact(code);
    return TOTP_CODE.test(typed) ? acceptTotp(userId, typed) : acceptBackupCode(userId, typed);
  }

  /** The login step (sign-in.service `verifySecondFactor`): a TOTP code or a backup code. */
  const verifyLoginCode = (user: { id: number }, code: string): Promise<boolean> => acceptAnyCode(user.id, code);

  /**
   * The checks of the authenticated 2FA changes feed the account lockout like a login does (docs/authentication.md
   * "Lockout and audit": every check of a password or second factor counts), so a stolen access token cannot be used to guess them.
   */
  async function checked(userId: number, meta: RequestMeta,
    check: (state: CheckState) => Promise<'ok' | 'INVALID_PASSWORD' | 'INVALID_CODE'>): Promise<void> {
    const state = await repo.findCheckState(db, userId);
    if (!state?.is_2fa_enabled) throw notEnabled();
    const target: LockTarget = { userId, lockedUntil: state.locked_until };
    await lockout.assertNotLocked(target);
    const outcome = await check(state);
    if (outcome === 'ok') return;
    await lockout.recordFailure(target, meta);
    throw new AppError(outcome);
  }

  const event = (eventType: string, userId: number, meta: RequestMeta, severity: 'info' | 'warning' = 'info') => ({
    event_type: eventType, severity, user_id: userId, application_id: meta.applicationId, ip_address: meta.ip, user_agent: meta.userAgent,
  });

  async function status(userId: number) {
    const row = await repo.findStatus(db, userId);
    const isEnabled = row?.is_2fa_enabled ?? false;
    // Codes issued by a setup that is not confirmed yet cannot be used: only an enabled account has any left.
    return { is_enabled: isEnabled, backup_codes_remaining: isEnabled ? Number(row!.unused_codes) : 0 };
  }

  /** Starts a setup: a new pending secret and 10 backup codes, both usable once the first code is confirmed. */
  async function setup(user: TwoFactorUser) {
    const secret = newTotpSecret();
    const backupCodes = newBackupCodes();
    const key = await codeKey();
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      const row = await repo.lockUser(trx, user.id);
      if (row?.is_2fa_enabled) throw new AppError('2FA_ALREADY_ENABLED');
      await repo.savePendingSecret(trx, user.id, sealer.seal(secret), now);
      await repo.replaceBackupCodes(trx, user.id, backupCodes.map((c) => backupCodeHash(key, user.id, c)), now);
    });
    const uri = provisioningUri({ issuer: config.TOTP_ISSUER, account: user.email ?? user.phone ?? user.username ?? `user-${user.id}`, secret });
    return { secret, qrCode: await QRCode.toDataURL(uri), provisioningUri: uri, backupCodes };
  }

  /** Confirms the pending secret with a code from it; that time step counts as used. */
  async function confirm(user: TwoFactorUser, code: string, meta: RequestMeta) {
    const credential = await repo.findCredential(db, user.id);
    const pending = credential?.pending_secret_sealed;
    if (!pending) throw new AppError('INVALID_CODE', { message: 'No two-factor setup is in progress; call 2fa/setup/ first' });
    const now = clock.now();
    const step = matchTotpStep(base32Decode(sealer.open(pending)), compact(code), now, config.TOTP_VALID_WINDOW);
    if (step === null) throw new AppError('INVALID_CODE');
    const enabled = await db.transaction().execute(async (trx) => {
      if (!(await repo.activatePendingSecret(trx, user.id, pending, step, now))) return false;
      await repo.setTwoFactorEnabled(trx, user.id, true, now);
      await audit.record(event('2fa_enabled', user.id, meta), trx);
      await events.emit(trx, '2fa.enabled', { user_id: user.id });
      return true;
    });
    if (!enabled) throw new AppError('INVALID_CODE');
  }

  /** Turns 2FA off: needs the password and a TOTP or backup code (the password first, so a typo burns no backup code). */
  async function disable(user: TwoFactorUser, input: { code: string; password: string }, meta: RequestMeta) {
    await checked(user.id, meta, async (state) => {
      if (!(await verifyPassword({ id: user.id, ...state }, input.password))) return 'INVALID_PASSWORD';
      return (await acceptAnyCode(user.id, input.code)) ? 'ok' : 'INVALID_CODE';
    });
    await db.transaction().execute(async (trx) => {
      await repo.deleteTwoFactor(trx, user.id);
      await repo.setTwoFactorEnabled(trx, user.id, false, clock.now());
      await audit.record(event('2fa_disabled', user.id, meta, 'warning'), trx);
      await events.emit(trx, '2fa.disabled', { user_id: user.id });
      await notices.twoFactorDisabled(trx, user.id);
    });
    notices.deliver();
  }

  /** A new set of 10 backup codes for a TOTP code; every earlier code stops working. */
  async function regenerateBackupCodes(user: TwoFactorUser, code: string, meta: RequestMeta) {
    await checked(user.id, meta, async () => {
      const typed = compact(code);
      return TOTP_CODE.test(typed) && (await acceptTotp(user.id, typed)) ? 'ok' : 'INVALID_CODE';
    });
    const backupCodes = newBackupCodes();
    const key = await codeKey();
    await db.transaction().execute(async (trx) => {
      await repo.lockUser(trx, user.id);
      await repo.replaceBackupCodes(trx, user.id, backupCodes.map((c) => backupCodeHash(key, user.id, c)), clock.now());
      await audit.record(event('backup_codes_regenerated', user.id, meta), trx);
    });
    return { backupCodes };
  }

  /**
   * An administrator's reset (admin-users.service `resetTwoFactor`), in the caller's transaction: the secret, a setup
   * under way and every backup code go, and the account signs in with its password alone until it sets 2FA up again.
   * Answers whether there was anything to remove.
   */
  async function removeForReset(trx: Executor, userId: number): Promise<boolean> {
    const row = await repo.lockUser(trx, userId);
    const hadAny = !!row?.is_2fa_enabled || !!(await repo.findCredential(trx, userId));
    await repo.deleteTwoFactor(trx, userId);
    await repo.setTwoFactorEnabled(trx, userId, false, clock.now());
    return hadAny;
  }

  return { status, setup, confirm, disable, regenerateBackupCodes, verifyLoginCode, removeForReset };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
