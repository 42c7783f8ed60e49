import type { Clock } from '../../core/clock.js';
import { AppError, type FieldErrors } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { PasswordHasher } from '../../security/password-hash.js';
import type { PasswordService } from '../passwords/passwords.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import { isValidEmail, normalizeEmail, normalizePhone } from './contact.js';
import { createPasswordVerifier } from './password-verifier.js';
import * as repo from './users.repo.js';

export interface CreateUserInput {
  email?: string | null;
  phone?: string | null;
  /** Absent: a passwordless account (`has_usable_password` false). */
  password?: string | null;
  first_name?: string;
  last_name?: string;
  roles?: string[];
  is_staff?: boolean;
  is_superuser?: boolean;
  must_change_password?: boolean;
  verified?: boolean;
}

type Deps = { db: Db; clock: Clock; hasher: PasswordHasher; passwords: PasswordService; events: WebhookEvents };

export function createUserService({ db, clock, hasher, passwords, events }: Deps) {
  /** Creates an account with its default roles plus `roles`. Problems answer 400 validation per field. */
  async function create(input: CreateUserInput) {
    const errors: FieldErrors = {};
    const email = input.email ? normalizeEmail(input.email) : null;
    if (email !== null && !isValidEmail(email)) errors.email = ['Enter a valid email address.'];
    const phone = input.phone ? normalizePhone(input.phone) : null;
    if (input.phone && phone === null) errors.phone = ['Enter a valid international phone number (+<country code><number>).'];
    if (!email && !input.phone) errors.non_field_errors = ['An email or a phone number is required.'];
    if (input.password) {
      const problems = passwords.check(input.password, { email, first_name: input.first_name, last_name: input.last_name });
      if (problems.length) errors.password = problems;
    }
    if (email && !errors.email && await repo.findUserIdByEmail(db, email)) errors.email = ['A user with this email already exists.'];
    if (phone && await repo.findUserIdByPhone(db, phone)) errors.phone = ['A user with this phone number already exists.'];
    const requested = [...new Set(input.roles ?? [])];
    const roles = await repo.findRolesByCodes(db, requested);
    const unknown = requested.filter((c) => !roles.some((r) => r.code === c));
    if (unknown.length) errors.roles = [`Unknown role: ${unknown.join(', ')}.`];
    if (Object.keys(errors).length) throw AppError.validation(errors);

    if (input.password) await passwords.screen(input.password, null);
    const passwordHash = input.password ? await hasher.hash(input.password) : null;
    try {
      return await insertWithRoles(input, { email, phone, passwordHash, roleIds: roles.map((r) => r.id) });
    } catch (err) {
      // Two requests racing for one email or phone both pass the checks above: the unique index decides.
      if (!isUniqueViolation(err)) throw err;
      const constraint = (err as { constraint?: unknown }).constraint;
      throw AppError.validation(constraint === 'users_phone_key'
        ? { phone: ['A user with this phone number already exists.'] }
        : { email: ['A user with this email already exists.'] });
    }
  }

  type Prepared = { email: string | null; phone: string | null; passwordHash: string | null; roleIds: number[] };

  function insertWithRoles(input: CreateUserInput, { email, phone, passwordHash, roleIds }: Prepared) {
    return db.transaction().execute(async (trx) => {
      const user = await repo.insertUser(trx, {
        email,
        phone,
        password_hash: passwordHash,
        has_usable_password: passwordHash !== null,
        first_name: input.first_name ?? '',
        last_name: input.last_name ?? '',
        is_staff: input.is_staff ?? false,
        is_superuser: input.is_superuser ?? false,
        must_change_password: input.must_change_password ?? false,
        is_email_verified: Boolean(input.verified && email),
        is_phone_verified: Boolean(input.verified && phone),
        custom_fields: null,
        preferences: JSON.stringify({ email_notifications: true, sms_notifications: false, marketing_emails: false }),
        created_at: clock.now(),
        updated_at: clock.now(),
      });
      if (passwordHash) await passwords.remember(trx, user.id, passwordHash, clock.now());
      const defaults = await repo.findDefaultRoles(trx);
      await repo.insertUserRoles(trx, user.id, [...new Set([...defaults.map((r) => r.id), ...roleIds])]);
      await events.emit(trx, 'user.created', { user_id: user.id, email, phone, first_name: input.first_name ?? '',
        last_name: input.last_name ?? '', is_email_verified: Boolean(input.verified && email),
        is_phone_verified: Boolean(input.verified && phone) }, user.id);
      return user;
    });
  }

  return { create, verifyPassword: createPasswordVerifier({ db, hasher }).verify };
}

export type UserService = ReturnType<typeof createUserService>;
