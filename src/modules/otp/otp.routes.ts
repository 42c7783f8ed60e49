import { AppError } from '../../core/errors.js';
import { aliasField } from '../../core/aliases.js';
import { authOf } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import {
  EmailVerifiedResponse, OtpRequestBody, OtpRequestResponse, OtpVerifyBody, PhoneVerifiedResponse, SDK_OTP_TYPES,
  type OtpRequestInput,
} from './otp.schemas.js';
import type { OtpType } from './otp.service.js';

/** `otp_type`, or the SDK's `type` (docs/migrating-from-tenxyte.md rule 3); 400 validation when neither is sent or both disagree. */
function otpTypeOf(body: OtpRequestInput): OtpType {
  const otpType = aliasField(body, 'otp_type', 'type', { from: (type) => SDK_OTP_TYPES[type] });
  if (!otpType) throw AppError.validation({ otp_type: ['This field is required.'] });
  return otpType;
}

/** docs/passwords-and-codes.md "One-time codes": request and verify codes for the account's email address and phone. */
export default async function otpRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { otp } = container.services;
  const user = guards.user();
  const verifyLimit = guards.rateLimit('otp_verify', [{ max: 5, per: 'minute' }]);

  app.post('/otp/request/', {
    schema: { tags: ['otp'], body: OtpRequestBody, response: { 200: OtpRequestResponse } },
    onRequest: [guards.rateLimit('otp_request', [{ max: 5, per: 'hour' }]), user],
  }, async (req) => {
    const body = req.body;
    const { purpose } = body;
    const sent = await otp.request(authOf(req).user.id, otpTypeOf(body), purpose);
    return {
      message: `${purpose === 'password_change' ? 'Password change' : 'Verification'} code sent by ${sent.channel === 'email' ? 'email' : 'SMS'}.`,
      otp_id: sent.otpId, expires_at: sent.expiresAt.toISOString(), channel: sent.channel, masked_recipient: sent.maskedRecipient,
    };
  });

  app.post('/otp/verify/email/', {
    schema: { tags: ['otp'], body: OtpVerifyBody, response: { 200: EmailVerifiedResponse } },
    onRequest: [verifyLimit, user],
  }, async (req) => {
    const { verifiedAt } = await otp.verifyEmail(authOf(req).user.id, req.body.code);
    return { message: 'Email address verified.', email_verified: true, verified_at: verifiedAt.toISOString() };
  });

  app.post('/otp/verify/phone/', {
    schema: { tags: ['otp'], body: OtpVerifyBody, response: { 200: PhoneVerifiedResponse } },
    onRequest: [verifyLimit, user],
  }, async (req) => {
    const { verifiedAt, phoneNumber } = await otp.verifyPhone(authOf(req).user.id, req.body.code);
    return { message: 'Phone number verified.', phone_verified: true, verified_at: verifiedAt.toISOString(), phone_number: phoneNumber };
  });
}
