import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { LoginMeta, ProviderOutcome, SignInService } from '../auth/sign-in.service.js';
import * as userRepo from '../users/lookup.js';
import type { UserService } from '../users/users.service.js';
import type { ProviderIdentity } from './identity.js';
import * as repo from './social-login.repo.js';

type Deps = { db: Db; clock: Clock; signIn: SignInService; users: UserService };

export interface SocialSignInInput {
  totp_code?: string | undefined;
  device_info?: string | undefined;
}

const refused = (reason: string) => new AppError('SOCIAL_AUTH_FAILED', { details: { reason } });

/**
 * docs/social-login.md "Which account signs in", once a provider vouched for an identity: the linked account, or the account of the
 * same verified address (only if that account verified it too), or a new account; then every check of a password
 * login — lockout, bans, second factor, the administrators' 2FA gate, the forced-change scope, device limits.
 */
export function createSocialLoginService({ db, clock, signIn: signInSteps, users }: Deps) {
  /** The account of the identity, linking or creating it; `isNew` when it was created now. */
  async function accountOf(provider: string, identity: ProviderIdentity): Promise<{ userId: number; linkId: number; isNew: boolean }> {
    const linked = await repo.findLinkedUser(db, provider, identity.subject);
    if (linked) return { userId: linked.user_id, linkId: linked.id, isNew: false };
    if (!identity.email) throw refused('email_not_verified');
    let isNew = false;
    let account = await repo.findAccountByEmail(db, identity.email);
    if (account && !account.is_email_verified) throw refused('account_exists');
    if (!account) {
      try {
        const created = await users.create({ email: identity.email, password: null, first_name: identity.firstName,
          last_name: identity.lastName, verified: true });
        account = { id: created.id, is_email_verified: true };
        isNew = true;
      } catch (err) {
        // A parallel sign-in created the account first: link to it like any verified account.
        account = await repo.findAccountByEmail(db, identity.email);
        if (!account) throw err;
        if (!account.is_email_verified) throw refused('account_exists');
      }
    }
    const link = await repo.insertLink(db, { userId: account.id, provider, subject: identity.subject, email: identity.email, now: clock.now() });
    if (link) return { userId: account.id, linkId: link.id, isNew };
    // Linked by a parallel sign-in meanwhile.
    const winner = (await repo.findLinkedUser(db, provider, identity.subject))!;
    return { userId: winner.user_id, linkId: winner.id, isNew: false };
  }

  /** Every check of a password login, then the session: the account may sign in, its second factor, the tokens. */
  async function proceed(user: userRepo.LoginUser, identifier: string, input: SocialSignInInput, meta: LoginMeta) {
    await signInSteps.admitAccount(user, identifier, meta, () => refused('account_disabled'));
    await signInSteps.secondFactor(user, input.totp_code, { userId: user.id, lockedUntil: user.locked_until }, identifier, meta);
    return signInSteps.completeLogin(user, identifier, input.device_info, meta);
  }

  const identifierOf = (provider: string, identity: ProviderIdentity) => identity.email ?? `${provider}:${identity.subject}`;
  const answer = (body: Awaited<ReturnType<typeof proceed>>, provider: string, isNew: boolean) =>
    ({ ...body, message: 'Login successful', provider, is_new_user: isNew });

  /** Signs in the person a provider vouched for; answers the token response with `provider` and `is_new_user`. */
  async function signIn(provider: string, identity: ProviderIdentity, input: SocialSignInInput, meta: LoginMeta) {
    const { userId, linkId, isNew } = await accountOf(provider, identity);
    const user = (await userRepo.findUserForLoginById(db, userId))!;
    const body = await proceed(user, identifierOf(provider, identity), input, meta);
    await repo.touchLink(db, linkId, identity.email, clock.now());
    return answer(body, provider, isNew);
  }

  /**
   * The browser flow's sign-in, which has no second factor to offer: an account with 2FA that may sign in is answered
   * `secondFactorFor` (the caller hands the browser a single-use token to finish with a code) instead of tokens.
   */
  async function signInFromRedirect(provider: string, identity: ProviderIdentity, meta: LoginMeta) {
    const { userId, linkId, isNew } = await accountOf(provider, identity);
    const user = (await userRepo.findUserForLoginById(db, userId))!;
    const identifier = identifierOf(provider, identity);
    if (user.is_2fa_enabled) {
      await signInSteps.admitAccount(user, identifier, meta, () => refused('account_disabled'));
      return { secondFactorFor: user.id } as const;
    }
    const body = await proceed(user, identifier, {}, meta);
    await repo.touchLink(db, linkId, identity.email, clock.now());
    return { tokens: answer(body, provider, isNew) } as const;
  }

  /**
   * A social sign-in on the authorization server's page (docs/oauth.md "Sign-in and consent"): the same account and
   * checks, no session; an account with 2FA goes on to the page's code step.
   */
  async function signInForProvider(provider: string, identity: ProviderIdentity, meta: LoginMeta)
    : Promise<{ user: { id: number }; identifier: string; outcome: ProviderOutcome }> {
    const { userId, linkId } = await accountOf(provider, identity);
    const user = (await userRepo.findUserForLoginById(db, userId))!;
    const identifier = identifierOf(provider, identity);
    await signInSteps.admitAccount(user, identifier, meta, () => refused('account_disabled'));
    await repo.touchLink(db, linkId, identity.email, clock.now());
    if (user.is_2fa_enabled) return { user, identifier, outcome: 'second_factor_required' };
    return { user, identifier, outcome: await signInSteps.completeProviderSignIn(user, identifier, meta) };
  }

  /** POST social/<provider>/ with a redeemed `mfa_token`: the account the browser flow identified, now with its code. */
  async function finishSecondFactor(provider: string, userId: number, input: SocialSignInInput, meta: LoginMeta) {
    const user = await userRepo.findUserForLoginById(db, userId);
    if (!user) throw new AppError('INVALID_TOKEN');
    return answer(await proceed(user, user.email ?? `${provider}:user-${user.id}`, input, meta), provider, false);
  }

  return { signIn, signInFromRedirect, signInForProvider, finishSecondFactor };
}

export type SocialLoginService = ReturnType<typeof createSocialLoginService>;
