import { AppError } from '../../core/errors.js';
import { aliasField } from '../../core/aliases.js';
import { userAuthOf } from '../../http/guards/index.js';
import { createRefreshCookie } from '../../http/refresh-cookie.js';
import { metaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { normalizePassword } from '../../security/password-hash.js';
import { isValidEmail, normalizeEmail, phoneFromParts } from '../users/contact.js';
import type { ResetTarget } from './password-reset.service.js';
import {
  ChangeBody, ChangeResponse, RequirementsResponse, ResetConfirmBody, ResetConfirmResponse, ResetRequestBody,
  ResetRequestResponse, SetInitialBody, SetInitialResponse, StrengthBody, StrengthResponse,
  type ResetConfirmInput, type ResetRequestInput,
} from './passwords.schemas.js';

/** The account a reset names: an email, or a phone in two fields (400 with non_field_errors when neither). */
function resetTarget(body: ResetRequestInput): ResetTarget {
  if (body.email !== undefined && body.email.trim() !== '') {
    const email = normalizeEmail(body.email);
    if (!isValidEmail(email)) throw AppError.validation({ email: ['Enter a valid email address.'] });
    return { email };
  }
  if (body.phone_country_code === undefined && body.phone_number === undefined) {
    throw AppError.validation({ non_field_errors: ['Provide an email, or phone_country_code with phone_number.'] });
  }
  const parsed = phoneFromParts(body.phone_country_code, body.phone_number);
  if (parsed.errors) throw AppError.validation(parsed.errors);
  return { phone: parsed.phone };
}

/**
 * `new_password`, checked against `confirm_password` when sent (docs/migrating-from-tenxyte.md rule 4): 400 validation on
 * `confirm_password` when they differ. Compared after NFKC, as passwords are hashed: forms that differ only
 * there are the same password.
 */
const confirmedPassword = (body: ResetConfirmInput): string =>
  aliasField(body, 'new_password', 'confirm_password', { same: (a, b) => normalizePassword(a) === normalizePassword(b) })
  ?? body.new_password;

/** docs/passwords-and-codes.md: requirements, strength, change, reset and a first password. */
export default async function passwordRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { passwords, passwordChange, passwordReset } = container.services;
  const { config } = container;
  const cookie = createRefreshCookie(config);
  const restricted = guards.user({ scopes: ['full', 'password_change_only'] });
  const proofLimit = guards.rateLimit('password_proof', [{ max: 5, per: 'minute' }]);

  app.get('/password/requirements/', { schema: { tags: ['passwords'], response: { 200: RequirementsResponse } } },
    async () => ({ requirements: passwords.requirements(), min_length: config.PASSWORD_MIN_LENGTH, max_length: config.PASSWORD_MAX_LENGTH }));

  app.post('/password/strength/', { schema: { tags: ['passwords'], body: StrengthBody, response: { 200: StrengthResponse } } },
    async (req) => {
      const { password, email } = req.body;
      return passwords.strength(password, { email: email ?? null });
    });

  app.post('/password/change/', {
    schema: { tags: ['passwords'], body: ChangeBody, response: { 200: ChangeResponse } },
    onRequest: [proofLimit, restricted],
  }, async (req, reply) => cookie.withCookie(reply, await passwordChange.change(userAuthOf(req), req.body, metaOf(req))));

  app.post('/password/set-initial/', {
    schema: { tags: ['passwords'], body: SetInitialBody, response: { 200: SetInitialResponse } },
    onRequest: [guards.feature('OTP_LOGIN_ENABLED'), proofLimit, restricted],
  }, async (req, reply) => cookie.withCookie(reply,
    await passwordChange.setInitial(userAuthOf(req), req.body, metaOf(req))));

  app.post('/password/reset/request/', {
    schema: { tags: ['passwords'], body: ResetRequestBody, response: { 200: ResetRequestResponse } },
    onRequest: [guards.rateLimit('password_reset', [{ max: 3, per: 'hour' }])],
  }, async (req) => {
    const sent = await passwordReset.request(resetTarget(req.body), metaOf(req));
    return {
      message: 'If an account matches, a reset code has been sent to it.',
      otp_id: sent.otp_id, expires_at: sent.expires_at.toISOString(), channel: sent.channel,
    };
  });

  app.post('/password/reset/confirm/', {
    schema: { tags: ['passwords'], body: ResetConfirmBody, response: { 200: ResetConfirmResponse } },
    onRequest: [guards.rateLimit('password_reset_confirm', [{ max: 5, per: 'minute' }])],
  }, async (req) => {
    const body = req.body;
    return passwordReset.confirm(resetTarget(body), body.otp_code, confirmedPassword(body), metaOf(req));
  });
}
