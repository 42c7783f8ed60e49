import type { Clock } from '../../core/clock.js';
import type { Db, Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { PasswordHasher } from '../../security/password-hash.js';
import type { AuditService } from '../audit/audit.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import { isProblem, parseImportLine, type ImportRecord, type LineProblem, type ProblemCode } from './import-line.js';
import { planBatch, type BatchPlan } from './import-plan.js';
import * as repo from './import.repo.js';

/** Lines per transaction: a few statements each, whatever the size (see import.repo.ts). */
export const IMPORT_BATCH_LINES = 1000;

export interface ImportOptions {
  /** Check every line against the file and the database, and write nothing. */
  dryRun: boolean;
  /** Apply the differences between the file and existing accounts (otherwise an existing email is left as it is). */
  update: boolean;
}

export interface ImportSummary {
  /** Non-blank lines read. */
  lines: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Of `unchanged`: accounts that differ from their line, left alone without `--update`. */
  differing: number;
  skipped: number;
  skippedBy: Partial<Record<ProblemCode, number>>;
  /** The last line whose outcome is written (everything up to it is settled); 0 before the first batch. */
  settledThrough: number;
}

export interface ImportReporter {
  problem(problem: LineProblem): void;
  updated(line: number, email: string, changes: string[]): void;
  /** After each batch is settled (committed, or checked in a dry run). */
  progress(summary: ImportSummary): void;
}

/** The import stopped on a failure that is not a line's fault (the database went away): what was settled stays. */
export class ImportInterruptedError extends Error {
  override name = 'ImportInterruptedError';
  constructor(readonly summary: ImportSummary, override readonly cause: unknown) {
    super(`stopped after line ${summary.settledThrough}: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

type Deps = { db: Db; clock: Clock; hasher: PasswordHasher; audit: AuditService; events: WebhookEvents };

const PREFERENCES = JSON.stringify({ email_notifications: true, sms_notifications: false, marketing_emails: false });

/** Which field a unique index refused, from its name (users_phone_key, users_username_key, users_email_key). */
function uniqueProblem(record: ImportRecord, err: unknown): LineProblem {
  const constraint = String((err as { constraint?: unknown }).constraint ?? '');
  if (constraint.includes('phone')) return { line: record.line, code: 'phone_taken', message: 'phone: already used by another account' };
  if (constraint.includes('username')) return { line: record.line, code: 'username_taken', message: 'username: already taken' };
  return { line: record.line, code: 'duplicate_email', message: 'email: an account with this email was created meanwhile' };
}

/**
 * `gatehouse users import`: JSON lines in, accounts out. Lines are read as a stream and settled in batches, each in one
 * transaction (multi-row statements: the accounts, then their roles). A line that cannot be imported is reported with
 * its number and skipped before anything is written; should the database still refuse a batch (an account created
 * meanwhile with the same email or phone), the batch is rolled back and its lines settled one transaction each, so a
 * bad line is never half-written and the good ones still go in. Idempotent on email.
 */
export function createUserImportService({ db, clock, hasher, audit, events }: Deps) {
  async function run(source: AsyncIterable<string>, opts: ImportOptions, report: ImportReporter): Promise<ImportSummary> {
    const roles = await repo.findAllRoles(db);
    const roleIds = new Map(roles.map((r) => [r.code, Number(r.id)]));
    const defaultRoleIds = roles.filter((r) => r.is_default).map((r) => Number(r.id));
    const summary: ImportSummary = {
      lines: 0, created: 0, updated: 0, unchanged: 0, differing: 0, skipped: 0, skippedBy: {}, settledThrough: 0,
    };
    const skip = (problem: LineProblem) => {
      summary.skipped++;
      summary.skippedBy[problem.code] = (summary.skippedBy[problem.code] ?? 0) + 1;
      report.problem(problem);
    };
    const firstLineOf = { email: new Map<string, number>(), phone: new Map<string, number>(), username: new Map<string, number>() };

    /** A second line for one email, phone or username in the same file. */
    function repeated(record: ImportRecord): LineProblem | null {
      const checks: Array<[keyof typeof firstLineOf, string | null | undefined, ProblemCode]> = [
        ['email', record.email, 'duplicate_email'], ['phone', record.fields.phone, 'phone_taken'],
        ['username', record.fields.username?.toLowerCase(), 'username_taken'],
      ];
      for (const [field, value, code] of checks) {
        const first = value ? firstLineOf[field].get(value) : undefined;
        if (first !== undefined) return { line: record.line, code, message: `${field}: same as line ${first}` };
      }
      for (const [field, value] of checks) if (value) firstLineOf[field].set(value, record.line);
      return null;
    }

    const decide = async (ex: Executor, records: ImportRecord[]): Promise<BatchPlan> => {
      const emails = records.map((r) => r.email);
      const phones = records.flatMap((r) => (r.fields.phone ? [r.fields.phone] : []));
      const usernames = records.flatMap((r) => (r.fields.username ? [r.fields.username] : []));
      return planBatch(records, {
        existing: await repo.findUsersByEmails(ex, emails, !opts.dryRun),
        phoneOwners: await repo.findPhoneOwners(ex, phones),
        usernameOwners: await repo.findUsernameOwners(ex, usernames),
      }, { roleIds, defaultRoleIds, update: opts.update, isGatehouseHash: (h) => !hasher.needsRehash(h) });
    };

    type Announce = { created: boolean; updated: boolean };

    async function write(trx: Executor, plan: BatchPlan, announce: Announce): Promise<void> {
      const now = clock.now();
      const ids = await repo.insertUsers(trx, plan.creates, PREFERENCES, now);
      await repo.updateUsers(trx, plan.updates, now);
      const grants = [...plan.createRoles.map((g) => ({ userId: ids.get(g.email)!, roleId: g.roleId })), ...plan.updateRoles];
      await repo.insertUserRoles(trx, grants.map((g) => g.userId), grants.map((g) => g.roleId));
      await emitEvents(trx, plan, ids, announce);
    }

    /** `user.created` and `user.updated` in the batch's transaction, as for any other change (nothing when nobody subscribes). */
    async function emitEvents(trx: Executor, plan: BatchPlan, ids: Map<string, number>, announce: Announce): Promise<void> {
      const c = plan.creates;
      for (const [i, email] of announce.created ? c.email.entries() : []) {
        const id = ids.get(email)!;
        await events.emit(trx, 'user.created', { user_id: id, email, phone: c.phone[i]!, first_name: c.first_name[i]!,
          last_name: c.last_name[i]!, is_email_verified: c.is_email_verified[i]!, is_phone_verified: c.is_phone_verified[i]! }, id);
      }
      for (const [i, u] of announce.updated ? plan.updated.entries() : []) {
        const id = plan.updates.id[i]!;
        await events.emit(trx, 'user.updated', { user_id: id, email: u.email, changed_fields: u.changes.map((f) => f.split(' ')[0]!),
          actor_id: null }, id);
      }
    }

    /**
     * Whether anyone subscribes is read before the transaction: the subscription list is read through `db`, which on
     * PGlite (one connection, serialized) would wait behind the open transaction.
     */
    async function settle(records: ImportRecord[]): Promise<BatchPlan> {
      if (opts.dryRun) return decide(db, records);
      const announce = { created: await events.wants('user.created'), updated: await events.wants('user.updated') };
      return db.transaction().execute(async (trx) => {
        const plan = await decide(trx, records);
        await write(trx, plan, announce);
        return plan;
      });
    }

    /** Settles a batch, or on a unique violation each of its lines alone; counts only what committed. */
    async function flush(records: ImportRecord[]): Promise<void> {
      if (!records.length) return;
      let plan: BatchPlan;
      try {
        plan = await settle(records);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (records.length === 1) return skip(uniqueProblem(records[0]!, err));
        for (const record of records) await flush([record]);
        return;
      }
      for (const problem of plan.problems) skip(problem);
      for (const u of plan.updated) report.updated(u.line, u.email, u.changes);
      summary.created += plan.creates.email.length;
      summary.updated += plan.updated.length;
      summary.unchanged += plan.unchanged;
      summary.differing += plan.differing;
    }

    let lineNo = 0;
    let batch: ImportRecord[] = [];
    const settleBatch = async () => {
      try {
        await flush(batch);
      } catch (err) {
        throw new ImportInterruptedError(summary, err);
      }
      batch = [];
      summary.settledThrough = lineNo;
      report.progress(summary);
    };
    for await (const raw of source) {
      lineNo++;
      const text = lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (!text.trim()) continue;
      summary.lines++;
      const parsed = parseImportLine(text, lineNo, roleIds);
      const problem = isProblem(parsed) ? parsed : repeated(parsed);
      if (problem) skip(problem);
      else batch.push(parsed as ImportRecord);
      if (batch.length >= IMPORT_BATCH_LINES) await settleBatch();
    }
    await settleBatch();
    if (!opts.dryRun && (summary.created || summary.updated)) {
      // An import changes accounts in bulk: always recorded, whatever SVC_AUDIT_LOGGING_ENABLED says.
      await audit.recordAlways({ event_type: 'users_imported', details: {
        created: summary.created, updated: summary.updated, unchanged: summary.unchanged, skipped: summary.skipped,
      } });
    }
    return summary;
  }

  return { run };
}

export type UserImportService = ReturnType<typeof createUserImportService>;
