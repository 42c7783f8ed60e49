import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

export interface TokenCounts {
  active_refresh_tokens: number;
  blacklisted_tokens: number;
  expired_today: number;
}

/**
 * Live refresh tokens (neither rotated nor revoked) not expired, and those that reached their expiry since
 * `dayStart`: two ranges of `refresh_tokens_live_expiry_idx`. Blacklist entries still in force: a range of
 * `token_blacklist_expires_idx`.
 */
export async function tokenCounts(db: Executor, now: Date, dayStart: Date): Promise<TokenCounts> {
  const { rows } = await sql<TokenCounts>`
    select
      (select count(*) from refresh_tokens where revoked_at is null and rotated_at is null and expires_at > ${now})::int
        as active_refresh_tokens,
      (select count(*) from token_blacklist where expires_at > ${now})::int as blacklisted_tokens,
      (select count(*) from refresh_tokens where revoked_at is null and rotated_at is null
        and expires_at >= ${dayStart} and expires_at <= ${now})::int as expired_today`.execute(db);
  return rows[0]!;
}
