import type { Db } from '../../db/database.js';
import { addByDay, emptyCounts, foldRows, type Counts } from './counts.js';
import * as repo from './daily-counts.repo.js';
import { addDays, addHours, isoSeconds, startOfUtcDay, startOfUtcHour, type Range } from './period.js';

type Deps = { db: Db };

/**
 * An hour is closed this long after it ended: rows are written with the writer's clock inside short transactions, so
 * by then none can still arrive dated within it.
 */
export const SETTLE_MS = 15 * 60_000;
/** Hours closed per transaction (a week), so that each statement stays well inside the statement timeout. */
const CLOSING_BATCH_HOURS = 7 * 24;
/**
 * The most hours a request closes itself before answering. A longer backlog (the first request after an upgrade, or
 * after the service was down) is left to the `dashboard-counts` job, and counted live from the source tables until then:
 * a request never waits for the whole history to be counted.
 */
const INLINE_CLOSING_HOURS = 3;

/** The first hour not yet closable at `now`: hours before it ended at least SETTLE_MS ago. */
const closingCutoff = (now: Date) => startOfUtcHour(new Date(now.getTime() - SETTLE_MS));

/**
 * Sign-in, registration, deletion and security-incident counts by UTC day, and active accounts. An hour that has ended
 * is counted once into `dashboard_counts` (the rows it counts are never changed or back-dated once it is over), and a
 * day once all its hours are; they are read from there afterwards. Only the last hour or so is counted on the source
 * tables, through their date indexes: a 90-day figure reads 90 rows and an hour of attempts, whatever the traffic. An
 * organization's figures count its members' rows directly (memberships change; members are few).
 */
export function createDailyCountsService({ db }: Deps) {
  let closing: Promise<void> | undefined;

  /** Closes every hour before `cutoff` not closed yet, oldest first; concurrent callers share one run. */
  function closeHoursBefore(cutoff: Date): Promise<void> {
    closing ??= closeUntil(cutoff).finally(() => { closing = undefined; });
    return closing;
  }

  async function closeUntil(cutoff: Date): Promise<void> {
    for (let more = true; more;) {
      more = await db.transaction().execute(async (trx) => {
        if (!(await repo.tryLockClosing(trx))) return false; // another instance is closing: use what is closed
        const first = hourAfter(await repo.lastClosedHour(trx)) ?? dayOf(await repo.firstActivity(trx));
        if (!first || first >= cutoff) return false;
        const batch = { from: first, until: new Date(Math.min(addHours(first, CLOSING_BATCH_HOURS).getTime(), cutoff.getTime())) };
        const counted = await countLive(trx, batch, 'hour');
        const hours: repo.StoredCounts[] = [];
        for (let h = batch.from; h < batch.until; h = addHours(h, 1)) {
          hours.push({ starts_at: isoSeconds(h), hours: 1, counts: counted.get(isoSeconds(h)) ?? emptyCounts() });
        }
        await repo.insertCounts(trx, hours);
        await repo.moveLastSignIns(trx, batch);
        await closeWholeDays(trx, startOfUtcDay(batch.from), batch.until);
        return batch.until < cutoff;
      });
    }
  }

  /** Each day from `from` whose hours are all closed now gets its own row: their sum. */
  async function closeWholeDays(trx: Db, from: Date, hoursClosedUntil: Date) {
    const until = startOfUtcDay(hoursClosedUntil);
    if (until <= from) return;
    const days = addByDay(new Map(), (await repo.hourCounts(trx, { from, until })).map((h) => [h.starts_at, h.counts]));
    const rows: repo.StoredCounts[] = [];
    for (let day = from; day < until; day = addDays(day, 1)) {
      rows.push({ starts_at: isoSeconds(day), hours: 24, counts: days.get(isoSeconds(day).slice(0, 10)) ?? emptyCounts() });
    }
    await repo.insertCounts(trx, rows);
  }

  async function countLive(executor: Db, range: Range, unit: repo.Bucket, organizationId?: number): Promise<Map<string, Counts>> {
    if (range.from >= range.until) return new Map();
    const logins = await repo.loginCounts(executor, range, unit, organizationId);
    const accounts = await repo.accountCounts(executor, range, unit, organizationId);
    return foldRows(logins, accounts, await repo.incidentCounts(executor, range, unit, organizationId));
  }

  /**
   * The counts as of `now`: settled hours are closed first (once), then every figure of the request reads the same
   * first open hour.
   */
  async function at(now: Date): Promise<DailyCounts> {
    const cutoff = closingCutoff(now);
    let open = hourAfter(await repo.lastClosedHour(db));
    if (open && open < cutoff && cutoff.getTime() - open.getTime() <= INLINE_CLOSING_HOURS * 3_600_000) {
      await closeHoursBefore(cutoff);
      open = hourAfter(await repo.lastClosedHour(db));
    }

    /**
     * Counts by UTC day over `range` (starting at a midnight): closed whole days and closed hours from
     * `dashboard_counts`, the rest (the open hours, or the part of an hour the range ends in) from the source tables.
     */
    async function byDay(range: Range, organizationId?: number): Promise<Map<string, Counts>> {
      if (organizationId !== undefined) return addByDay(new Map(), await countLive(db, range, 'day', organizationId));
      const lastHourStart = startOfUtcHour(new Date(range.until.getTime() - 1));
      const boundary = open ? new Date(Math.max(range.from.getTime(), Math.min(open.getTime(), lastHourStart.getTime()))) : range.from;
      const [closed, live] = await Promise.all([
        boundary > range.from ? repo.closedCounts(db, range.from, startOfUtcDay(boundary), boundary) : Promise.resolve([]),
        countLive(db, { from: boundary, until: range.until }, 'day'),
      ]);
      const days = addByDay(new Map(), closed.map((c) => [c.starts_at, c.counts]));
      return addByDay(days, live);
    }

    /** Accounts created less accounts deleted, up to now: the closed hours' balance plus the open ones'. */
    async function netAccounts(): Promise<number> {
      const [closed, live] = await Promise.all([
        open ? repo.closedNetAccounts(db) : Promise.resolve(0),
        repo.accountCounts(db, { from: open ?? new Date(0), until: new Date(now.getTime() + 1) }, 'day'),
      ]);
      return live.reduce((net, row) => net + row.registered - row.deleted, closed);
    }

    /**
     * Accounts with a successful sign-in during `range` (starting at a midnight): those whose last closed sign-in
     * falls in it, plus those signing in during the open hours who had not in a closed hour of the range.
     */
    async function activeAccounts(range: Range, organizationId?: number): Promise<number> {
      if (organizationId !== undefined) return repo.signedInDuring(db, range, organizationId);
      if (!open || open <= range.from) return repo.signedInDuring(db, range);
      const [closed, newly] = await Promise.all([
        repo.lastSignInsDuring(db, { from: range.from, until: open }),
        repo.newlySignedIn(db, { from: open, until: range.until }, range.from),
      ]);
      return closed + newly;
    }

    return { byDay, netAccounts, activeAccounts };
  }

  /** The `dashboard-counts` job: closes every settled hour (the whole history on its first run); answers the last one. */
  async function closeSettled(now: Date): Promise<Date | null> {
    await closeHoursBefore(closingCutoff(now));
    return repo.lastClosedHour(db);
  }

  return { at, closeSettled };
}

/** The hour after a closed hour: the first open one. */
const hourAfter = (hour: Date | null): Date | null => (hour ? addHours(hour, 1) : null);
const dayOf = (at: Date | null): Date | null => (at ? startOfUtcDay(at) : null);

export interface DailyCounts {
  byDay(range: Range, organizationId?: number): Promise<Map<string, Counts>>;
  netAccounts(): Promise<number>;
  activeAccounts(range: Range, organizationId?: number): Promise<number>;
}

export type DailyCountsService = ReturnType<typeof createDailyCountsService>;
