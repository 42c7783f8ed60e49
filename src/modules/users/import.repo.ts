import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/**
 * The user import's statements: a few per batch of lines, whatever its size. Rows go in and out as column arrays
 * through `unnest`, so one statement text serves every batch (no per-size query build or plan, no parameter limit).
 */

/** What an existing account holds of the importable fields, with its role codes. */
export interface ExistingUser {
  id: number;
  email: string;
  phone: string | null;
  username: string | null;
  first_name: string;
  last_name: string;
  is_email_verified: boolean;
  is_phone_verified: boolean;
  password_hash: string | null;
  has_usable_password: boolean;
  password_hash_unnormalized: boolean;
  roles: string[];
}

/** The accounts of `emails`; `lock` holds them (FOR UPDATE) until the batch's transaction ends. */
export async function findUsersByEmails(db: Executor, emails: string[], lock: boolean): Promise<ExistingUser[]> {
  if (!emails.length) return [];
  const { rows } = await sql<ExistingUser>`
    select u.id, u.email, u.phone, u.username, u.first_name, u.last_name, u.is_email_verified, u.is_phone_verified,
      u.password_hash, u.has_usable_password, u.password_hash_unnormalized,
      coalesce((select array_agg(r.code order by r.code) from user_roles ur join roles r on r.id = ur.role_id
        where ur.user_id = u.id), '{}') as roles
    from users u where u.email = any(${emails}::text[])
    ${lock ? sql`for update of u` : sql``}`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Who holds each of `phones` (E.164): phone → email. */
export async function findPhoneOwners(db: Executor, phones: string[]): Promise<Map<string, string | null>> {
  if (!phones.length) return new Map();
  const { rows } = await sql<{ phone: string; email: string | null }>`
    select phone, email from users where phone = any(${phones}::text[])`.execute(db);
  return new Map(rows.map((r) => [r.phone, r.email]));
}

/** Who holds each of `usernames`, compared case-insensitively like the unique index: lower(username) → email. */
export async function findUsernameOwners(db: Executor, usernames: string[]): Promise<Map<string, string | null>> {
  if (!usernames.length) return new Map();
  const { rows } = await sql<{ key: string; email: string | null }>`
    select lower(username) as key, email from users
    where lower(username) = any(${usernames.map((u) => u.toLowerCase())}::text[])`.execute(db);
  return new Map(rows.map((r) => [r.key, r.email]));
}

export const findAllRoles = (db: Executor) =>
  db.selectFrom('roles').select(['id', 'code', 'is_default']).execute();

/** One account per element of the arrays (all of the same length). */
export interface NewUsers {
  email: string[];
  phone: Array<string | null>;
  username: Array<string | null>;
  first_name: string[];
  last_name: string[];
  password_hash: Array<string | null>;
  is_email_verified: boolean[];
  is_phone_verified: boolean[];
}

/**
 * Inserts the accounts and answers their ids by email. An imported hash holds the text as its system hashed it, not
 * NFKC: it is marked unnormalized (see password-verifier.ts).
 */
export async function insertUsers(db: Executor, users: NewUsers, preferences: string, now: Date): Promise<Map<string, number>> {
  if (!users.email.length) return new Map();
  const at = now.toISOString();
  const { rows } = await sql<{ id: number; email: string }>`
    insert into users (email, phone, username, first_name, last_name, password_hash, has_usable_password,
      password_hash_unnormalized, is_email_verified, is_phone_verified, preferences, created_at, updated_at)
    select t.email, t.phone, t.username, t.first_name, t.last_name, t.password_hash, t.password_hash is not null,
      t.password_hash is not null, t.is_email_verified, t.is_phone_verified, ${preferences}::jsonb, ${at}::timestamptz, ${at}::timestamptz
    from unnest(${users.email}::text[], ${users.phone}::text[], ${users.username}::text[], ${users.first_name}::text[],
      ${users.last_name}::text[], ${users.password_hash}::text[], ${users.is_email_verified}::boolean[],
      ${users.is_phone_verified}::boolean[])
      as t(email, phone, username, first_name, last_name, password_hash, is_email_verified, is_phone_verified)
    returning id, email`.execute(db);
  return new Map(rows.map((r) => [r.email, Number(r.id)]));
}

/** Grants role `roleIds[i]` to user `userIds[i]`; a grant already held is left as it is. */
export async function insertUserRoles(db: Executor, userIds: number[], roleIds: number[]): Promise<void> {
  if (!userIds.length) return;
  await sql`insert into user_roles (user_id, role_id) select * from unnest(${userIds}::bigint[], ${roleIds}::bigint[])
    on conflict (user_id, role_id) do nothing`.execute(db);
}

/** The importable fields of existing accounts, set to the values given (one element per account). */
export interface UserUpdates extends Omit<NewUsers, 'email'> {
  id: number[];
  has_usable_password: boolean[];
  password_hash_unnormalized: boolean[];
}

export async function updateUsers(db: Executor, u: UserUpdates, now: Date): Promise<void> {
  if (!u.id.length) return;
  await sql`
    update users set phone = t.phone, username = t.username, first_name = t.first_name, last_name = t.last_name,
      password_hash = t.password_hash, has_usable_password = t.has_usable_password,
      password_hash_unnormalized = t.password_hash_unnormalized, is_email_verified = t.is_email_verified,
      is_phone_verified = t.is_phone_verified, updated_at = ${now.toISOString()}::timestamptz
    from unnest(${u.id}::bigint[], ${u.phone}::text[], ${u.username}::text[], ${u.first_name}::text[], ${u.last_name}::text[],
      ${u.password_hash}::text[], ${u.has_usable_password}::boolean[], ${u.password_hash_unnormalized}::boolean[],
      ${u.is_email_verified}::boolean[], ${u.is_phone_verified}::boolean[])
      as t(id, phone, username, first_name, last_name, password_hash, has_usable_password, password_hash_unnormalized,
        is_email_verified, is_phone_verified)
    where users.id = t.id`.execute(db);
}
