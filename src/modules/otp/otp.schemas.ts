import { Type, type Static } from 'typebox';
import { Body } from '../../http/schema.js';

/** The Tenxyte SDK's spelling of `otp_type` (docs/migrating-from-tenxyte.md), and what each value means in the API's terms. */
export const SDK_OTP_TYPES = { email_verification: 'email', phone_verification: 'phone' } as const;

/** `otp_type` or its alias `type` is required (checked by the route, since either may be the one sent). */
export const OtpRequestBody = Body({
  otp_type: Type.Optional(Type.Union([Type.Literal('email'), Type.Literal('phone')])),
  type: Type.Optional(Type.Union([Type.Literal('email_verification'), Type.Literal('phone_verification')], {
    description: 'Alias of otp_type: email_verification is email, phone_verification is phone',
  })),
  /** `verify` (default) proves the address; `password_change` is the fresh proof password/change/ accepts as `otp_code`. */
  purpose: Type.Optional(Type.Union([Type.Literal('verify'), Type.Literal('password_change')])),
});
export type OtpRequestInput = Static<typeof OtpRequestBody>;

/** The API's limits: verification code fields take at most 6 characters. */
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
