import type { Config } from '../../config/settings.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { OutboxService } from '../../notifications/outbox.service.js';
import { newOpaqueToken, sha256Hex } from '../../security/random.js';
import type { AppContext } from '../applications/applications.service.js';
import type { LockoutService } from '../auth/lockout.service.js';
import type { LoginMeta, LoginService } from '../auth/login.service.js';
import { isValidEmail, normalizeEmail } from '../users/contact.js';
import { canSignIn } from '../users/account-state.js';
import * as userRepo from '../users/users.repo.js';
import type { IdentifierProof } from './identifier-proof.js';
import { createLoginSteps } from './login-steps.js';
import * as repo from './magic-link.repo.js';
import { isAllowedValidationUrl, linkWithToken } from './validation-url.js';

type Deps = {
  db: Db; clock: Clock; config: Config; outbox: OutboxService; login: LoginService; lockout: LockoutService; proof: IdentifierProof;
};

export interface MagicLinkRequestInput {
  email: string;
  validation_url?: string | undefined;
}

export interface MagicLinkVerifyInput {
  token: string;
  totp_code?: string | undefined;
  device_info?: string | undefined;
}

/**
 * Magic-link login (SPEC.md magic-link/*; DECISIONS.md "Codes, links, passwords"): 32 random bytes, only their
 * SHA-256 stored, single use, `SVC_MAGIC_LINK_LIFETIME`, sent through the outbox in the transaction that stores it.
 */
export function createMagicLinkService(deps: Deps) {
  const { db, clock, config, outbox, login, proof } = deps;
  const steps = createLoginSteps(deps);

  /**
   * POST magic-link/request/. The same answer, and the same work up to the insert, whether or not an account
   * will receive the link: the token is drawn and hashed and the address's older links retired in any case.
   */
  async function request(input: MagicLinkRequestInput, application: AppContext | null, meta: LoginMeta): Promise<void> {
    const validationUrl = input.validation_url;
    if (!validationUrl) throw new AppError('VALIDATION_URL_REQUIRED');
    const email = normalizeEmail(input.email);
    if (!isValidEmail(email)) throw AppError.validation({ email: ['Enter a valid email address.'] });
    if (!isAllowedValidationUrl(validationUrl, [...(application?.redirect_uris ?? []), ...config.MAGIC_LINK_ALLOWED_URLS])) {
      throw new AppError('INVALID_REDIRECT_URI');
    }
    const account = await repo.findRecipient(db, email);
    const recipient = account && canSignIn(account) ? account : null;
    const token = newOpaqueToken();
    const now = clock.now();
    const expiresAt = addSeconds(now, config.MAGIC_LINK_LIFETIME);
    await db.transaction().execute(async (trx) => {
      await repo.retireLinks(trx, email, now);
      if (!recipient) return;
      const link = await repo.insertLink(trx, {
        user_id: recipient.id, email, token_hash: token.hash, application_id: meta.applicationId,
        created_at: now, expires_at: expiresAt,
      });
      await outbox.enqueue(trx, {
        channel: 'email', to: email, purpose: 'magic_link', language: recipient.language, expiresAt,
        vars: { link: linkWithToken(validationUrl, token.raw), minutes: Math.ceil(config.MAGIC_LINK_LIFETIME / 60) },
        dedupKey: `magic_link:${link.id}`,
      });
    });
    outbox.kick();
  }

  /**
   * GET magic-link/verify/, as named steps: find the live link → its account (still at that address, usable,
   * not locked) → second factor → consume the link and verify the address (one transaction; the first proof of an
   * address removes a password set before it, identifier-proof.ts) → session and tokens.
   * The link is consumed only after the second factor passed, so a 2FA_REQUIRED answer leaves it usable.
   */
  async function verify(input: MagicLinkVerifyInput, meta: LoginMeta) {
    const now = clock.now();
    const link = await repo.findLiveLink(db, sha256Hex(input.token), now);
    // A link signs in through the application that asked for it, like every token it leads to.
    if (!link || (config.APPLICATION_AUTH_ENABLED && link.application_id !== meta.applicationId)) {
      throw new AppError('INVALID_TOKEN');
    }
    const user = await userRepo.findUserForLoginById(db, link.user_id);
    // The link proves the address it was sent to; once the account has another one it proves nothing.
    if (!user || user.email !== link.email) throw new AppError('INVALID_TOKEN');
    const identifier = link.email;
    const target = { userId: user.id, lockedUntil: user.locked_until };
    await login.admitAccount(user, identifier, meta, () => new AppError('INVALID_TOKEN'));
    await login.secondFactor(user, input.totp_code, target, identifier, meta);
    const consumed = await db.transaction().execute(async (trx) => {
      const row = await repo.consumeLink(trx, link.id, now);
      return row ? proof.prove(trx, user.id, { kind: 'email', value: row.email }, meta) : null;
    });
    if (!consumed) {
      await login.failed(identifier, meta, user.id, 'link_already_used');
      throw new AppError('INVALID_TOKEN');
    }
    if (consumed.passwordRevoked) proof.kick();
    const body = await login.completeLogin(user, identifier, input.device_info, meta);
    return { ...body, message: 'Login successful', device_summary: null };
  }

  return { request, verify };
}

export type MagicLinkService = ReturnType<typeof createMagicLinkService>;
