import { Type, type Static } from 'typebox';
import { Body } from '../../http/schema.js';

export const OtpRequestBody = Body({
  otp_type: Type.Union([Type.Literal('email'), Type.Literal('phone')]),
  /** `verify` (default) proves the address; `password_change` is the fresh proof password/change/ accepts as `otp_code`. */
  purpose: Type.Optional(Type.Union([Type.Literal('verify'), Type.Literal('password_change')])),
});
export type OtpRequestInput = Static<typeof OtpRequestBody>;

/** SPEC.md "Limits": verification code fields take at most 6 characters. */
export const OtpVerifyBody = Body({ code: Type.String({ minLength: 1, maxLength: 6 }) });
export type OtpVerifyInput = Static<typeof OtpVerifyBody>;

/** What every "a code was sent" answer carries (otp/request/, password/reset/request/, login/otp/request/). */
export const CodeSent = {
  message: Type.String(),
  otp_id: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
  channel: Type.Union([Type.Literal('email'), Type.Literal('sms')]),
};

export const OtpRequestResponse = Type.Object({ ...CodeSent, masked_recipient: Type.String() });

export const EmailVerifiedResponse = Type.Object({
  message: Type.String(),
  email_verified: Type.Boolean(),
  verified_at: Type.String({ format: 'date-time' }),
});

export const PhoneVerifiedResponse = Type.Object({
  message: Type.String(),
  phone_verified: Type.Boolean(),
  verified_at: Type.String({ format: 'date-time' }),
  phone_number: Type.String(),
});
