import type { RowUpdate } from '../../src/db/database.js';
import type { CreateUserInput } from '../../src/modules/users/users.service.js';
import type { TestApp } from '../helpers/test-app.js';

/** Long enough for every preset's minimum (robust: 15). */
export const DEFAULT_PASSWORD = 'correct horse battery staple';

/** Account state a sign-in decision reads, set on the row after the service created it. */
export type UserState = Pick<RowUpdate<'users'>, 'is_active' | 'is_banned' | 'is_2fa_enabled' | 'deleted_at' | 'locked_until'
  | 'password_hash' | 'has_usable_password' | 'username' | 'max_sessions' | 'max_devices' | 'tokens_valid_after'>;

export type UserOverrides = Omit<CreateUserInput, 'password'> & { password?: string | null } & UserState;

let sequence = 0;

/**
 * An account created through the user service (policy, normalization, default roles), then given `state`.
 * `password: null` makes a passwordless account. Answers the row with the clear-text password.
 */
export async function createUser(t: TestApp, overrides: UserOverrides = {}) {
  const { is_active, is_banned, is_2fa_enabled, deleted_at, locked_until, password_hash, has_usable_password, username,
    max_sessions, max_devices, tokens_valid_after, ...input } = overrides;
  const password = input.password === undefined ? DEFAULT_PASSWORD : input.password;
  sequence += 1;
  const email = 'email' in input ? input.email : `user${sequence}@example.com`;
  const created = await t.container.services.users.create({ ...input, email, password });
  const state = Object.fromEntries(Object.entries({ is_active, is_banned, is_2fa_enabled, deleted_at, locked_until,
    password_hash, has_usable_password, username, max_sessions, max_devices, tokens_valid_after }).filter(([, v]) => v !== undefined));
  if (Object.keys(state).length) await t.container.db.updateTable('users').set(state).where('id', '=', created.id).execute();
  return { id: created.id, email: created.email, phone: created.phone, password };
}

export type TestUser = Awaited<ReturnType<typeof createUser>>;

/** The stored row, for checks the API does not expose. */
export const userRow = (t: TestApp, id: number) =>
  t.container.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
