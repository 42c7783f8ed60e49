import type { Account, AccountClaims } from 'oidc-provider';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { canSignIn } from '../users/account-state.js';
import * as users from '../users/lookup.js';

/** A user id as the provider's `sub`: the decimal id, as everywhere on the wire. */
const idOf = (sub: string): number | null => (/^[1-9][0-9]{0,17}$/.test(sub) ? Number(sub) : null);

/** A code or token as the provider hands it to `findAccount`: when it was issued (seconds). */
export interface IssuedToken { iat?: number }

/** The account's state that decides whether its tokens still hold. */
export type AccountState = Parameters<typeof canSignIn>[0] & { locked_until: Date | null; tokens_valid_after: Date | null };

/**
 * Whether a token issued at `iat` (seconds) still speaks for the account: it can sign in, is not locked, and the token
 * does not predate its `tokens_valid_after`.
 */
export function admits(user: AccountState, now: Date, iat: number | undefined): boolean {
  if (!canSignIn(user)) return false;
  if (user.locked_until && user.locked_until > now) return false;
  return !(iat !== undefined && user.tokens_valid_after && iat * 1000 < user.tokens_valid_after.getTime());
}

/**
 * The provider's accounts are Gatehouse's users (docs/oauth.md "Claims"). An account that can no longer sign in
 * (inactive, banned, deleted, locked) is not found, and neither is it for a token issued before its
 * `tokens_valid_after` (the event that set it revoked the person's grants; this covers a token issued meanwhile):
 * userinfo, refresh and introspection then refuse the token.
 */
export function createOauthAccounts({ db, clock }: { db: Db; clock: Clock }) {
  async function find(sub: string, token?: IssuedToken): Promise<Account | undefined> {
    const id = idOf(sub);
    const user = id === null ? undefined : await users.findUserForClaims(db, id);
    if (!user || !admits(user, clock.now(), token?.iat)) return undefined;
    const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
    const claims: AccountClaims = {
      sub,
      ...(user.email ? { email: user.email, email_verified: user.is_email_verified } : {}),
      ...(name ? { name } : {}),
      ...(user.first_name ? { given_name: user.first_name } : {}),
      ...(user.last_name ? { family_name: user.last_name } : {}),
      ...(user.phone ? { phone_number: user.phone, phone_number_verified: user.is_phone_verified } : {}),
    };
    return { accountId: sub, claims: () => claims };
  }

  return { find };
}

export type OauthAccounts = ReturnType<typeof createOauthAccounts>;
