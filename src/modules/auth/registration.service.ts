import type { Static } from 'typebox';
import { AppError, isAppError, type FieldErrors } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import type { OtpService } from '../otp/otp.service.js';
import type { SessionService } from '../sessions/sessions.service.js';
import { phoneFromParts } from '../users/contact.js';
import type { UserService } from '../users/users.service.js';
import type { LoginMeta, SignInService } from './sign-in.service.js';
import type { RegisterBody } from './auth.schemas.js';

type Deps = { db: Db; users: UserService; sessions: SessionService; signIn: SignInService; audit: AuditService; otp: OtpService };

export type RegisterInput = Static<typeof RegisterBody>;

/** The registration form names the phone in two fields; account errors about the phone belong to `phone_number`. */
function phoneOf(input: RegisterInput, errors: FieldErrors): string | null {
  if (input.phone_country_code === undefined && input.phone_number === undefined) return null;
  const parsed = phoneFromParts(input.phone_country_code, input.phone_number);
  if (parsed.errors) Object.assign(errors, parsed.errors);
  return parsed.phone ?? null;
}

export function createRegistrationService({ db, users, sessions, signIn, audit, otp }: Deps) {
  /** POST register/: an account with its default roles; with `login: true` also a session and its tokens. */
  async function register(input: RegisterInput, meta: LoginMeta) {
    const errors: FieldErrors = {};
    const email = input.email?.trim() || null;
    const phone = phoneOf(input, errors);
    if (!email && input.phone_country_code === undefined && input.phone_number === undefined) {
      errors.non_field_errors = ['Provide an email, or phone_country_code with phone_number.'];
    }
    if (Object.keys(errors).length) throw AppError.validation(errors);
    let created;
    try {
      created = await users.create({ email, phone, password: input.password, first_name: input.first_name ?? '',
        last_name: input.last_name ?? '' });
    } catch (err) {
      if (isAppError(err) && err.code === 'VALIDATION_ERROR') {
        const details = { ...(err.opts.details as FieldErrors) };
        if (details.phone) { details.phone_number = details.phone; delete details.phone; }
        throw AppError.validation(details);
      }
      throw err;
    }
    await audit.record({ event_type: 'register', user_id: created.id, application_id: meta.applicationId, ip_address: meta.ip,
      user_agent: meta.userAgent });
    const verification_required = { email: Boolean(created.email), phone: Boolean(created.phone) };
    // The answer says the address needs verifying: its code is on its way, as otp/request/ would send it
    // (docs/passwords-and-codes.md "Verification codes"). Only a new account gets here: an address already
    // registered was refused above, before any work beyond the lookup, and receives nothing. A phone's code is
    // sent on request only: an SMS costs money, and sending one to any number typed into a sign-up form would
    // invite SMS pumping.
    if (verification_required.email) await otp.request(created.id, 'email');
    if (!input.login) {
      return { message: 'Registration successful', user: await signIn.userResponse(created.id), verification_required };
    }
    const account = { id: created.id, max_sessions: null, max_devices: null, must_change_password: false };
    const issued = await db.transaction().execute((trx) => sessions.open(trx, account, 'full', input.device_info, meta));
    const { user, requires_2fa: _r, ...tokens } = await signIn.tokenResponse(created.id, issued);
    return { message: 'Registration successful', user, verification_required, ...tokens };
  }

  return { register };
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
