import { parseForeignHash } from '../../security/foreign-hash.js';
import { isValidEmail, normalizeEmail, normalizePhone } from './contact.js';

/**
 * One line of a user import file (JSON lines), checked on its own: shape, email, phone, names, username, flags, role
 * codes and the password hash's format and cost. What needs the database (an email or phone already taken) is decided
 * per batch by the import service.
 */

/** The fields a line may set. Absent means "not given": a new account gets the default, an update leaves it alone. */
export interface ImportFields {
  phone?: string | null;
  first_name?: string;
  last_name?: string;
  username?: string | null;
  is_email_verified?: boolean;
  is_phone_verified?: boolean;
}

export interface ImportRecord {
  line: number;
  email: string;
  fields: ImportFields;
  roles: string[];
  /** A recognised foreign hash; null or absent: no password. */
  password_hash: string | null;
}

/** Why a line is skipped: a stable code (the summary counts by it) and a message that never quotes a password hash. */
export type ProblemCode = 'invalid_json' | 'unknown_field' | 'invalid_field' | 'invalid_email' | 'invalid_phone' | 'unknown_role'
  | 'unknown_hash_format' | 'invalid_hash' | 'hash_too_costly' | 'duplicate_email' | 'phone_taken' | 'username_taken' | 'line_too_long';

export interface LineProblem {
  line: number;
  code: ProblemCode;
  message: string;
}

/** A line longer than this is no user record (and is never parsed). */
export const MAX_LINE_BYTES = 64 * 1024;

const KNOWN_FIELDS = new Set(['email', 'phone', 'first_name', 'last_name', 'username', 'is_email_verified', 'is_phone_verified',
  'roles', 'password_hash']);
// The profile's rule for usernames (profile.schemas.ts).
const USERNAME_RE = /^[A-Za-z0-9_.@+-]{3,150}$/;
/** Role codes are quoted in messages only when they look like one. */
const ROLE_CODE_RE = /^[A-Za-z0-9_.:-]{1,64}$/;
/** Field names are quoted in messages only when they look like one. */
const FIELD_NAME_RE = /^[A-Za-z0-9_]{1,40}$/;
const MAX_NAME = 150;

/** The role codes that exist (a Set, or a Map keyed by code). */
export type RoleCodes = { has(code: string): boolean };

class Refusal extends Error {
  constructor(readonly code: ProblemCode, message: string) { super(message); }
}
const refuse = (code: ProblemCode, message: string): never => { throw new Refusal(code, message); };

/** PostgreSQL text cannot hold U+0000; refused here rather than failing a whole batch at insert. */
const hasNul = (s: string) => s.includes('\u0000');

function text(obj: Record<string, unknown>, key: string, max: number): string | undefined {
  const value = obj[key];
  if (value === undefined) return undefined;
  if (value === null) return '';
  if (typeof value !== 'string' || hasNul(value)) return refuse('invalid_field', `${key}: must be a string`);
  if (value.length > max) return refuse('invalid_field', `${key}: at most ${max} characters`);
  return value;
}

function flag(obj: Record<string, unknown>, key: string): boolean | undefined {
  const value = obj[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') return refuse('invalid_field', `${key}: must be true or false`);
  return value;
}

function email(obj: Record<string, unknown>): string {
  const value = obj.email;
  if (value === undefined || value === null || value === '') return refuse('invalid_email', 'email: required');
  if (typeof value !== 'string' || hasNul(value)) return refuse('invalid_email', 'email: must be a string');
  const normalized = normalizeEmail(value);
  if (!isValidEmail(normalized)) return refuse('invalid_email', 'email: not a valid email address');
  return normalized;
}

function phone(obj: Record<string, unknown>): string | null | undefined {
  const value = obj.phone;
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  if (typeof value !== 'string') return refuse('invalid_phone', 'phone: must be a string');
  return normalizePhone(value) ?? refuse('invalid_phone', 'phone: not a valid international number (+<country code><number>)');
}

function username(obj: Record<string, unknown>): string | null | undefined {
  const value = obj.username;
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  if (typeof value !== 'string' || !USERNAME_RE.test(value)) {
    return refuse('invalid_field', 'username: 3 to 150 letters, digits or _ . @ + -');
  }
  return value;
}

function roles(obj: Record<string, unknown>, knownRoles: RoleCodes): string[] {
  const value = obj.roles;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((c) => typeof c !== 'string')) {
    return refuse('invalid_field', 'roles: must be a list of role codes');
  }
  const codes = [...new Set(value as string[])];
  const unknown = codes.filter((c) => !knownRoles.has(c));
  if (unknown.length) {
    const shown = unknown.filter((c) => ROLE_CODE_RE.test(c)).map((c) => `"${c}"`);
    refuse('unknown_role', `roles: unknown role${unknown.length > 1 ? 's' : ''}${shown.length ? ` ${shown.join(', ')}` : ''}`);
  }
  return codes;
}

function passwordHash(obj: Record<string, unknown>): string | null {
  const value = obj.password_hash;
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') return refuse('invalid_hash', 'password_hash: must be a string');
  const parsed = parseForeignHash(value);
  if (parsed.ok) return value;
  const codes = { unknown_format: 'unknown_hash_format', malformed: 'invalid_hash', too_costly: 'hash_too_costly' } as const;
  const code = codes[parsed.problem.kind];
  return refuse(code, `password_hash: ${parsed.problem.message}`);
}

/**
 * A record, or the reason the line is skipped. `raw` is the line's text; the JSON parser's own message is never
 * passed on, since it quotes the text around the error (which may be a password hash).
 */
export function parseImportLine(raw: string, line: number, knownRoles: RoleCodes): ImportRecord | LineProblem {
  try {
    if (Buffer.byteLength(raw, 'utf8') > MAX_LINE_BYTES) refuse('line_too_long', `longer than ${MAX_LINE_BYTES} bytes`);
    let obj: unknown;
    try {
      obj = JSON.parse(raw);
    } catch (err) {
      const at = /position (\d+)/.exec((err as Error).message)?.[1];
      refuse('invalid_json', `not valid JSON${at ? ` (at character ${Number(at) + 1})` : ''}`);
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return refuse('invalid_json', 'not a JSON object');
    const record = obj as Record<string, unknown>;
    const unknownKeys = Object.keys(record).filter((k) => !KNOWN_FIELDS.has(k));
    if (unknownKeys.length) {
      const shown = unknownKeys.filter((k) => FIELD_NAME_RE.test(k)).map((k) => `"${k}"`);
      refuse('unknown_field', `unknown field${unknownKeys.length > 1 ? 's' : ''}${shown.length ? ` ${shown.join(', ')}` : ''}`);
    }
    const address = email(record);
    const fields: ImportFields = {
      phone: phone(record), first_name: text(record, 'first_name', MAX_NAME), last_name: text(record, 'last_name', MAX_NAME),
      username: username(record), is_email_verified: flag(record, 'is_email_verified'),
      is_phone_verified: flag(record, 'is_phone_verified'),
    };
    for (const key of Object.keys(fields) as Array<keyof ImportFields>) if (fields[key] === undefined) delete fields[key];
    return { line, email: address, fields, roles: roles(record, knownRoles), password_hash: passwordHash(record) };
  } catch (err) {
    if (err instanceof Refusal) return { line, code: err.code, message: err.message };
    throw err;
  }
}

export const isProblem = (r: ImportRecord | LineProblem): r is LineProblem => 'code' in r;
