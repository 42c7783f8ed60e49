import type { Executor, NewRow } from '../../db/database.js';

export const insertState = (db: Executor, values: NewRow<'social_login_states'>) =>
  db.insertInto('social_login_states').values(values).execute();

/** Consumes a state in one statement: unused and unexpired only, so a replay (or a race) finds nothing. */
export const consumeState = (db: Executor, stateHash: string, now: Date) =>
  db.updateTable('social_login_states').set({ consumed_at: now })
    .where('state_hash', '=', stateHash).where('consumed_at', 'is', null).where('expires_at', '>', now)
    .returning(['provider', 'cookie_hash', 'application_id', 'redirect_uri', 'oauth_interaction', 'code_verifier_sealed', 'nonce']).executeTakeFirst();

export const insertMfaToken = (db: Executor, values: NewRow<'social_mfa_tokens'>) =>
  db.insertInto('social_mfa_tokens').values(values).execute();

/** Consumes a second-factor hand-over in one statement (single use, 5 minutes). */
export const consumeMfaToken = (db: Executor, tokenHash: string, provider: string, now: Date) =>
  db.updateTable('social_mfa_tokens').set({ consumed_at: now })
    .where('token_hash', '=', tokenHash).where('provider', '=', provider).where('consumed_at', 'is', null).where('expires_at', '>', now)
    .returning(['user_id', 'application_id']).executeTakeFirst();
