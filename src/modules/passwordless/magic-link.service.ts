import type { Config } from '../../config/settings.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { OutboxService, Preparer } from '../../notifications/outbox.service.js';
import { newOpaqueToken, sha256Hex } from '../../security/random.js';
import type { AppContext } from '../applications/applications.service.js';
import type { LockoutService } from '../auth/lockout.service.js';
import type { LoginMeta, SignInService } from '../auth/sign-in.service.js';
import { isValidEmail, normalizeEmail } from '../users/contact.js';
import { canSignIn } from '../users/account-state.js';
import * as userRepo from '../users/lookup.js';
import type { IdentifierProof } from './identifier-proof.js';
import { createLoginSteps } from './login-steps.js';
import * as repo from './magic-link.repo.js';
import type { MagicLinkRequestInput } from './passwordless.schemas.js';
import { isAllowedValidationUrl, linkWithToken } from './validation-url.js';

type Deps = {
  db: Db; clock: Clock; config: Config; outbox: OutboxService; signIn: SignInService; lockout: LockoutService; proof: IdentifierProof;
};

/** What a queued link's message carries besides the link: its token's hash and the application that asked for it. */
type LinkRequestContext = { token_hash: string; application_id: number | null };

export interface MagicLinkVerifyInput {
  token: string;
  totp_code?: string | undefined;
  device_info?: string | undefined;
}

/**
 * Magic-link login (docs/authentication.md "Passwordless login"; docs/decisions.md "Passwordless login"): 32 random bytes, only their
 * SHA-256 stored, single use, `SVC_MAGIC_LINK_LIFETIME`, sent through the outbox in the transaction that stores it.
 */
export function createMagicLinkService(deps: Deps) {
  const { db, clock, config, outbox, signIn, proof } = deps;
  const steps = createLoginSteps(deps);

  /**
   * POST magic-link/request/. The same answer, and the same work before it, whether or not an account will receive
   * the link (docs/security.md "Same answer, same work"): a token is drawn and hashed and its message written to the
   * outbox in every case. Looking the account up and storing the link happen when the message is prepared
   * (`prepareLink`), after the answer; an address with no usable account gets nothing.
   */
  async function request(input: MagicLinkRequestInput, application: AppContext | null, meta: LoginMeta): Promise<void> {
    const validationUrl = input.validation_url;
    if (!validationUrl) throw new AppError('VALIDATION_URL_REQUIRED');
    const email = normalizeEmail(input.email);
    if (!isValidEmail(email)) throw AppError.validation({ email: ['Enter a valid email address.'] });
    if (!isAllowedValidationUrl(validationUrl, [...(application?.redirect_uris ?? []), ...config.MAGIC_LINK_ALLOWED_URLS])) {
      throw new AppError('INVALID_REDIRECT_URI');
    }
    const token = newOpaqueToken();
    const context: LinkRequestContext = { token_hash: token.hash, application_id: meta.applicationId };
    await outbox.enqueue(db, {
      channel: 'email', to: email, purpose: 'magic_link', expiresAt: addSeconds(clock.now(), config.MAGIC_LINK_LIFETIME),
      vars: { link: linkWithToken(validationUrl, token.raw), minutes: Math.ceil(config.MAGIC_LINK_LIFETIME / 60) }, context,
    });
    outbox.kick();
  }

  /**
   * Sends a queued link only to a usable account at that address. The first time, the link is stored and the older
   * ones sent to the address retired; on a later attempt (the provider failed) the stored link goes out as it is,
   * retired by a newer one meanwhile or not, as a message queued with its link always did.
   */
  const prepareLink: Preparer = async ({ recipient, vars, context, expiresAt }) => {
    const request = context as LinkRequestContext;
    const account = await repo.findRecipient(db, recipient);
    if (!account || !canSignIn(account)) return null;
    const now = clock.now();
    const isTheAccounts = await db.transaction().execute(async (trx) => {
      const existing = await repo.findLinkOwner(trx, request.token_hash);
      // Another account's link (the address changed hands between two attempts) is not sent.
      if (existing) return existing.user_id === account.id;
      await repo.retireLinks(trx, recipient, now);
      await repo.insertLink(trx, { user_id: account.id, email: recipient, token_hash: request.token_hash,
        application_id: request.application_id, created_at: now, expires_at: expiresAt });
      return true;
    });
    return isTheAccounts ? { vars, language: account.language } : null;
  };
  outbox.prepareWith('magic_link', prepareLink);

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
    await signIn.admitAccount(user, identifier, meta, () => new AppError('INVALID_TOKEN'));
    await signIn.secondFactor(user, input.totp_code, target, identifier, meta);
    const consumed = await db.transaction().execute(async (trx) => {
      const row = await repo.consumeLink(trx, link.id, now);
      return row ? proof.prove(trx, user.id, { kind: 'email', value: row.email }, meta) : null;
    });
    if (!consumed) {
      await signIn.failed(identifier, meta, user.id, 'link_already_used');
      throw new AppError('INVALID_TOKEN');
    }
    if (consumed.passwordRevoked) proof.kick();
    const body = await signIn.completeLogin(user, identifier, input.device_info, meta);
    return { ...body, message: 'Login successful', device_summary: null };
  }

  return { request, verify };
}

export type MagicLinkService = ReturnType<typeof createMagicLinkService>;
