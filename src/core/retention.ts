/**
 * How long ended sessions (with their refresh tokens), login attempts, identifier counters and dead codes are kept:
 * the cleanup job deletes them after this many days, and the data export states the same figures.
 */
export const RETENTION = { sessionsDays: 30, loginAttemptsDays: 90, lockoutsDays: 1, codesDays: 1 } as const;
