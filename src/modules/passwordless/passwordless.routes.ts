import { AppError } from '../../core/errors.js';
import { createRefreshCookie } from '../../http/refresh-cookie.js';
import { metaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { phoneFromParts } from '../users/contact.js';
import {
  MagicLinkRequestBody, MagicLinkVerifyQuery, MagicLinkVerifyResponse, OtpLoginRequestBody, OtpLoginRequestResponse,
  OtpLoginResponse, OtpLoginVerifyBody,
} from './passwordless.schemas.js';

/** The phone of a form that names it in two fields, in E.164; 400 validation per field otherwise. */
function phoneOf(body: { phone_country_code: string; phone_number: string }): string {
  const parsed = phoneFromParts(body.phone_country_code, body.phone_number);
  if (parsed.errors) throw AppError.validation(parsed.errors);
  return parsed.phone;
}

/** Passwordless logins (docs/authentication.md "Passwordless login"): a one-time code by SMS, or a magic link by email. */
export default async function passwordlessRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { otpLogin, magicLinks } = container.services;
  const cookie = createRefreshCookie(container.config);
  const otpEnabled = guards.feature('OTP_LOGIN_ENABLED');
  const magicEnabled = guards.feature('MAGIC_LINK_ENABLED');

  app.post('/login/otp/request/', {
    schema: { tags: ['auth'], body: OtpLoginRequestBody, response: { 200: OtpLoginRequestResponse } },
    onRequest: [otpEnabled, guards.rateLimit('login_otp_request', [{ max: 5, per: 'minute' }, { max: 20, per: 'day' }])],
  }, async (req) => {
    const sent = await otpLogin.request(phoneOf(req.body), metaOf(req, 'otp'));
    return {
      message: 'Login code sent by SMS.', otp_id: sent.otpId, expires_at: sent.expiresAt.toISOString(), channel: 'sms' as const,
    };
  });

  app.post('/login/otp/verify/', {
    schema: { tags: ['auth'], body: OtpLoginVerifyBody, response: { 200: OtpLoginResponse } },
    onRequest: [otpEnabled, guards.rateLimit('login_otp_verify', [{ max: 5, per: 'minute' }])],
  }, async (req, reply) => {
    const { otp_code, totp_code, device_info, ...phone } = req.body;
    const body = await otpLogin.verify({ phone: phoneOf(phone), otp_code, totp_code, device_info }, metaOf(req, 'otp'));
    return cookie.withCookie(reply, body);
  });

  app.post('/magic-link/request/', {
    schema: { tags: ['auth'], body: MagicLinkRequestBody, response: { 200: MessageResponse } },
    onRequest: [magicEnabled, guards.rateLimit('magic_link_request', [{ max: 3, per: 'hour' }])],
  }, async (req) => {
    await magicLinks.request(req.body, req.application, metaOf(req, 'magic_link'));
    return { message: 'If an account uses this email address, a sign-in link has been sent to it.' };
  });

  app.get('/magic-link/verify/', {
    schema: { tags: ['auth'], querystring: MagicLinkVerifyQuery, response: { 200: MagicLinkVerifyResponse } },
    onRequest: [magicEnabled, guards.rateLimit('magic_link_verify', [{ max: 5, per: 'minute' }])],
  }, async (req, reply) => {
    const { token, totp_code, device_info } = req.query;
    if (!token) throw new AppError('TOKEN_REQUIRED');
    return cookie.withCookie(reply, await magicLinks.verify({ token, totp_code, device_info }, metaOf(req, 'magic_link')));
  });
}
