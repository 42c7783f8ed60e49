import type { TestApp } from '../helpers/test-app.js';
import { signIn } from './sessions.js';
import { signInAdmin } from './twofactor.js';
import { createUser, type UserOverrides } from './users.js';

/**
 * An account created through the user service and signed in through login/email/ (an administrator with 2FA, as
 * the admin gate requires); answers it with its access token.
 */
export async function account(t: TestApp, overrides: UserOverrides = {}) {
  const user = await createUser(t, overrides);
  const { access_token } = overrides.is_staff || overrides.is_superuser ? await signInAdmin(t, user) : await signIn(t, user);
  return { ...user, token: access_token };
}

export type Account = Awaited<ReturnType<typeof account>>;
