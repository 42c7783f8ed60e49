import { addSeconds } from '../core/clock.js';
import { RETENTION } from '../core/retention.js';
import * as repo from './cleanup.repo.js';
import type { Job } from './job.js';

const DAY = 86_400;

/**
 * Deletes what can no longer matter: expired blacklist entries, long-ended sessions, stale counters, dead codes and links,
 * old sends, expired OAuth records.
 */
export const cleanupJob: Job = async ({ db, clock }, log) => {
  const now = clock.now();
  const daysAgo = (days: number) => addSeconds(now, -days * DAY);
  const blacklist = await repo.deleteExpiredBlacklistEntries(db, now);
  log(`${blacklist} expired blacklist entries removed`);
  const sessions = await repo.deleteEndedSessions(db, daysAgo(RETENTION.sessionsDays));
  log(`${sessions} sessions ended more than ${RETENTION.sessionsDays} days ago removed (with their refresh tokens)`);
  const attempts = await repo.deleteLoginAttemptsBefore(db, daysAgo(RETENTION.loginAttemptsDays));
  log(`${attempts} login attempts older than ${RETENTION.loginAttemptsDays} days removed`);
  const lockouts = await repo.deleteStaleLockouts(db, daysAgo(RETENTION.lockoutsDays), now);
  log(`${lockouts} stale failure counters of unknown identifiers removed`);
  const codeCutoff = daysAgo(RETENTION.codesDays);
  const codes = await repo.deleteOtpCodesExpiredBefore(db, codeCutoff);
  const links = await repo.deleteMagicLinksExpiredBefore(db, codeCutoff);
  log(`${codes} one-time codes and ${links} sign-in links expired more than a day ago removed`);
  const states = await repo.deleteSocialLoginStatesExpiredBefore(db, codeCutoff);
  const handOvers = await repo.deleteSocialMfaTokensExpiredBefore(db, codeCutoff);
  log(`${states + handOvers} social-login states and second-factor hand-overs expired more than a day ago removed`);
  const challenges = await repo.deleteWebauthnChallengesExpiredBefore(db, codeCutoff);
  log(`${challenges} passkey challenges expired more than a day ago removed`);
  const counters = await repo.deleteEndedRateLimitCounters(db, now);
  log(`${counters} rate-limit counters of ended windows removed`);
  // The invitation limits' longest window is a day (docs/organizations.md).
  const sends = await repo.deleteInvitationSendsBefore(db, daysAgo(1));
  log(`${sends} invitation sends older than a day removed`);
  const oauth = await repo.deleteExpiredOauthRecords(db, now);
  log(`${oauth} expired authorization-server records (codes, tokens, grants, sessions) removed`);
  const total = blacklist + sessions + attempts + lockouts + codes + links + states + handOvers + challenges + counters + sends + oauth;
  return { idle: total === 0, summary: `${total} rows removed` };
};
