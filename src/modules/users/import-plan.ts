import type { ImportRecord, LineProblem } from './import-line.js';
import type { ExistingUser, NewUsers, UserUpdates } from './import.repo.js';

/**
 * What a batch of import lines does to the database, decided from what the database holds (pure: the service reads,
 * this decides, the service writes). A new email becomes an account; an existing one is compared field by field.
 *
 * With `--update` the file wins for the fields its line gives, with three exceptions that never undo what happened in
 * Gatehouse since: a password set or re-hashed here (an argon2id hash of Gatehouse's own parameters) is kept, a verified
 * email or phone is not un-verified (a new phone number starts unverified unless the line says otherwise), and roles are
 * only added. A field the line leaves out is left as it is.
 */

export interface BatchContext {
  existing: ExistingUser[];
  /** phone → email of its holder. */
  phoneOwners: Map<string, string | null>;
  /** lower(username) → email of its holder. */
  usernameOwners: Map<string, string | null>;
}

export interface PlanSettings {
  roleIds: Map<string, number>;
  defaultRoleIds: number[];
  update: boolean;
  /** True for a hash Gatehouse made (set or re-hashed here); `--update` never replaces one. */
  isGatehouseHash(hash: string): boolean;
}

export interface BatchPlan {
  creates: NewUsers;
  createRoles: Array<{ email: string; roleId: number }>;
  updates: UserUpdates;
  updateRoles: Array<{ userId: number; roleId: number }>;
  updated: Array<{ line: number; email: string; changes: string[] }>;
  unchanged: number;
  differing: number;
  problems: LineProblem[];
}

const emptyPlan = (): BatchPlan => ({
  creates: { email: [], phone: [], username: [], first_name: [], last_name: [], password_hash: [], is_email_verified: [],
    is_phone_verified: [] },
  createRoles: [],
  updates: { id: [], phone: [], username: [], first_name: [], last_name: [], password_hash: [], is_email_verified: [],
    is_phone_verified: [], has_usable_password: [], password_hash_unnormalized: [] },
  updateRoles: [], updated: [], unchanged: 0, differing: 0, problems: [],
});

/** The line's phone or username held by another account. */
function conflictOf(record: ImportRecord, ctx: BatchContext): LineProblem | null {
  const { phone, username } = record.fields;
  const phoneOwner = phone ? ctx.phoneOwners.get(phone) : undefined;
  if (phoneOwner !== undefined && phoneOwner !== record.email) {
    return { line: record.line, code: 'phone_taken', message: 'phone: already used by another account' };
  }
  const nameOwner = username ? ctx.usernameOwners.get(username.toLowerCase()) : undefined;
  if (nameOwner !== undefined && nameOwner !== record.email) {
    return { line: record.line, code: 'username_taken', message: 'username: already taken by another account' };
  }
  return null;
}

function addCreate(plan: BatchPlan, record: ImportRecord, settings: PlanSettings): void {
  const f = record.fields;
  const phone = f.phone ?? null;
  const c = plan.creates;
  c.email.push(record.email);
  c.phone.push(phone);
  c.username.push(f.username ?? null);
  c.first_name.push(f.first_name ?? '');
  c.last_name.push(f.last_name ?? '');
  c.password_hash.push(record.password_hash);
  c.is_email_verified.push(f.is_email_verified ?? false);
  c.is_phone_verified.push((f.is_phone_verified ?? false) && phone !== null);
  for (const roleId of new Set([...settings.defaultRoleIds, ...record.roles.map((code) => settings.roleIds.get(code)!)])) {
    plan.createRoles.push({ email: record.email, roleId });
  }
}

/** The account as the line would leave it, and the names of what changes (empty: nothing). */
function merge(user: ExistingUser, record: ImportRecord, settings: PlanSettings) {
  const f = record.fields;
  const next = { ...user };
  const changes: string[] = [];
  const set = <K extends 'first_name' | 'last_name' | 'username' | 'phone'>(key: K, value: ExistingUser[K] | undefined) => {
    if (value === undefined || value === user[key]) return false;
    next[key] = value;
    changes.push(key);
    return true;
  };
  set('first_name', f.first_name);
  set('last_name', f.last_name);
  set('username', f.username);
  if (set('phone', f.phone)) next.is_phone_verified = f.is_phone_verified === true && next.phone !== null;
  else if (f.is_phone_verified === true && !user.is_phone_verified && user.phone !== null) {
    next.is_phone_verified = true;
    changes.push('is_phone_verified');
  }
  if (f.is_email_verified === true && !user.is_email_verified) {
    next.is_email_verified = true;
    changes.push('is_email_verified');
  }
  const hash = record.password_hash;
  const current = user.has_usable_password ? user.password_hash : null;
  if (hash !== null && hash !== current && (current === null || !settings.isGatehouseHash(current))) {
    Object.assign(next, { password_hash: hash, has_usable_password: true, password_hash_unnormalized: true });
    changes.push('password_hash');
  }
  const missingRoles = record.roles.filter((code) => !user.roles.includes(code));
  if (missingRoles.length) changes.push(`roles (+${missingRoles.join(', ')})`);
  return { next, changes, missingRoles };
}

function addUpdate(plan: BatchPlan, user: ExistingUser, record: ImportRecord, merged: ReturnType<typeof merge>, settings: PlanSettings) {
  const u = plan.updates;
  const { next } = merged;
  u.id.push(user.id);
  u.phone.push(next.phone);
  u.username.push(next.username);
  u.first_name.push(next.first_name);
  u.last_name.push(next.last_name);
  u.password_hash.push(next.password_hash);
  u.has_usable_password.push(next.has_usable_password);
  u.password_hash_unnormalized.push(next.password_hash_unnormalized);
  u.is_email_verified.push(next.is_email_verified);
  u.is_phone_verified.push(next.is_phone_verified);
  for (const code of merged.missingRoles) plan.updateRoles.push({ userId: user.id, roleId: settings.roleIds.get(code)! });
  plan.updated.push({ line: record.line, email: record.email, changes: merged.changes });
}

export function planBatch(records: ImportRecord[], ctx: BatchContext, settings: PlanSettings): BatchPlan {
  const plan = emptyPlan();
  const existing = new Map(ctx.existing.map((u) => [u.email, u]));
  for (const record of records) {
    const conflict = conflictOf(record, ctx);
    if (conflict) {
      plan.problems.push(conflict);
      continue;
    }
    const user = existing.get(record.email);
    if (!user) {
      addCreate(plan, record, settings);
      continue;
    }
    const merged = merge(user, record, settings);
    if (!merged.changes.length) plan.unchanged++;
    else if (!settings.update) {
      plan.unchanged++;
      plan.differing++;
    } else addUpdate(plan, user, record, merged, settings);
  }
  return plan;
}
