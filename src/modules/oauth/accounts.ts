import type { Account, AccountClaims } from 'oidc-provider';
import type { Db } from '../../db/database.js';
import { canSignIn } from '../users/account-state.js';
import * as users from '../users/lookup.js';

/** A user id as the provider's `sub`: the decimal id, as everywhere on the wire. */
const idOf = (sub: string): number | null => (/^[1-9][0-9]{0,17}$/.test(sub) ? Number(sub) : null);

/**
 * The provider's accounts are Gatehouse's users (docs/oauth.md "Claims"). An account that can no longer sign in
 * (inactive, banned, deleted) is not found: its tokens stop working and userinfo refuses them.
 */
export function createOauthAccounts({ db }: { db: Db }) {
  async function find(sub: string): Promise<Account | undefined> {
    const id = idOf(sub);
    const user = id === null ? undefined : await users.findUserForClaims(db, id);
    if (!user || !canSignIn(user)) return undefined;
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
