import { addSeconds } from '../core/clock.js';
import { RETENTION } from '../core/retention.js';
import type { Job } from './registry.js';

const DAY = 86_400;

/** Deletes what can no longer matter: expired blacklist entries, long-ended sessions, stale counters, dead codes and links, old sends. */
export const cleanupJob: Job = async ({ db, clock }, log) => {
  const now = clock.now();
  const sessionCutoff = addSeconds(now, -RETENTION.sessionsDays * DAY);
  const blacklist = await db.deleteFrom('token_blacklist').where('expires_at', '<', now).executeTakeFirst();
  log(`${Number(blacklist.numDeletedRows)} expired blacklist entries removed`);
  const sessions = await db.deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', sessionCutoff), eb('revoked_at', '<', sessionCutoff)])).executeTakeFirst();
  log(`${Number(sessions.numDeletedRows)} sessions ended more than ${RETENTION.sessionsDays} days ago removed (with their refresh tokens)`);
  const attempts = await db.deleteFrom('login_attempts')
    .where('created_at', '<', addSeconds(now, -RETENTION.loginAttemptsDays * DAY)).executeTakeFirst();
  log(`${Number(attempts.numDeletedRows)} login attempts older than ${RETENTION.loginAttemptsDays} days removed`);
  const lockouts = await db.deleteFrom('identifier_lockouts')
    .where('updated_at', '<', addSeconds(now, -RETENTION.lockoutsDays * DAY))
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)])).executeTakeFirst();
  log(`${Number(lockouts.numDeletedRows)} stale failure counters of unknown identifiers removed`);
  const codeCutoff = addSeconds(now, -RETENTION.codesDays * DAY);
  const codes = await db.deleteFrom('otp_codes').where('expires_at', '<', codeCutoff).executeTakeFirst();
  const links = await db.deleteFrom('magic_links').where('expires_at', '<', codeCutoff).executeTakeFirst();
  log(`${Number(codes.numDeletedRows)} one-time codes and ${Number(links.numDeletedRows)} sign-in links expired more than a day ago removed`);
  const states = await db.deleteFrom('social_login_states').where('expires_at', '<', codeCutoff).executeTakeFirst();
  const handOvers = await db.deleteFrom('social_mfa_tokens').where('expires_at', '<', codeCutoff).executeTakeFirst();
  log(`${Number(states.numDeletedRows) + Number(handOvers.numDeletedRows)} social-login states and second-factor hand-overs expired more than a day ago removed`);
  const challenges = await db.deleteFrom('webauthn_challenges').where('expires_at', '<', codeCutoff).executeTakeFirst();
  log(`${Number(challenges.numDeletedRows)} passkey challenges expired more than a day ago removed`);
  const counters = await db.deleteFrom('rate_limit_counters').where('window_ends', '<', now).executeTakeFirst();
  log(`${Number(counters.numDeletedRows)} rate-limit counters of ended windows removed`);
  // The invitation limits' longest window is a day (docs/organizations.md).
  const sends = await db.deleteFrom('invitation_sends').where('sent_at', '<', addSeconds(now, -DAY)).executeTakeFirst();
  log(`${Number(sends.numDeletedRows)} invitation sends older than a day removed`);
  const total = [blacklist, sessions, attempts, lockouts, codes, links, states, handOvers, challenges, counters, sends].reduce((n, r) => n + Number(r.numDeletedRows), 0);
  return { idle: total === 0, summary: `${total} rows removed` };
};
