import { Type, type Static } from 'typebox';
import { Body, Nullable } from '../../http/schema.js';
import { StoredText } from '../users/users.schemas.js';
import { DELETION_STATUSES } from './deletion-request.schema.js';

const When = Type.String({ format: 'date-time' });
const Password = Type.String({ minLength: 1, maxLength: 1024 });

export const RequestDeletionBody = Body({
  password: Password,
  otp_code: Type.Optional(Type.String({ maxLength: 32, description: 'A TOTP or backup code; required when 2FA is on' })),
  reason: Type.Optional(StoredText({ maxLength: 1000 })),
});
export type RequestDeletionInput = Static<typeof RequestDeletionBody>;

export const RequestDeletionResponse = Type.Object({
  message: Type.String(),
  deletion_request_id: Type.Integer(),
  scheduled_deletion_date: When,
  grace_period_days: Type.Integer(),
  cancellation_token: Type.String({ description: 'A reference to the request, not a credential' }),
  data_retention_policy: Type.Object({ anonymization_after: Type.String(), final_deletion_after: Type.String() }),
});

export const ConfirmDeletionBody = Body({
  token: Type.String({ minLength: 1, maxLength: 256, description: 'The token of the confirmation email' }),
});
export type ConfirmDeletionInput = Static<typeof ConfirmDeletionBody>;

export const ConfirmDeletionResponse = Type.Object({
  message: Type.String(),
  deletion_confirmed: Type.Literal(true),
  grace_period_ends: When,
  cancellation_instructions: Type.String(),
});
export type ConfirmDeletionAnswer = Static<typeof ConfirmDeletionResponse>;

export const CancelDeletionBody = Body({ password: Password });
export type CancelDeletionInput = Static<typeof CancelDeletionBody>;

export const CancelDeletionResponse = Type.Object({
  message: Type.String(),
  deletion_cancelled: Type.Literal(true),
  account_reactivated: Type.Boolean(),
  cancellation_time: When,
  security_note: Type.String(),
  access_token: Type.Optional(Type.String({ description: 'Only for a `deletion_pending` caller: its full-scope replacement' })),
  refresh_token: Type.Optional(Type.String()),
  token_type: Type.Optional(Type.Literal('Bearer')),
  expires_in: Type.Optional(Type.Integer()),
  refresh_expires_in: Type.Optional(Type.Integer()),
});
export type CancelDeletionAnswer = Static<typeof CancelDeletionResponse>;

const Status = Type.Enum([...DELETION_STATUSES]);

export const DeletionStatusResponse = Type.Object({
  total_requests: Type.Integer(),
  active_request: Nullable(Type.Object({
    id: Type.Integer(), status: Status, requested_at: When, grace_period_ends_at: When,
    days_remaining: Type.Integer({ minimum: 0 }),
  })),
  history: Type.Array(Type.Object({
    id: Type.Integer(), status: Status, requested_at: When, confirmed_at: Nullable(When), completed_at: Nullable(When),
    reason: Nullable(Type.String()),
  })),
});
