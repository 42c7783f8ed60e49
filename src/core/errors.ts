/**
 * The one error catalogue: every code the API answers with, its default HTTP status and message.
 * Handlers throw `AppError(code)`; the error handler turns it into the body shapes of docs/api.md "Errors".
 */
export const ERROR_CATALOGUE = {
  // Platform
  VALIDATION_ERROR: { status: 400, message: 'Validation error' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Request body must be JSON (Content-Type: application/json)' },
  RATE_LIMITED: { status: 429, message: 'Too many requests, try again later' },
  INTERNAL_ERROR: { status: 500, message: 'Internal server error' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service unavailable' },
  FEATURE_DISABLED: { status: 404, message: 'This feature is not enabled' },
  APP_AUTH_REQUIRED: { status: 401, message: 'Application credentials are required (X-Access-Key, X-Access-Secret)' },
  APP_AUTH_INVALID: { status: 401, message: 'Invalid application credentials' },
  // Authentication and tokens
  UNAUTHORIZED: { status: 401, message: 'Authentication credentials were not provided' },
  TOKEN_INVALID: { status: 401, message: 'Token is invalid' },
  TOKEN_EXPIRED: { status: 401, message: 'Token has expired' },
  TOKEN_BLACKLISTED: { status: 401, message: 'Token has been revoked' },
  TOKEN_APP_MISMATCH: { status: 401, message: 'Token was issued to another application' },
  INSUFFICIENT_SCOPE: { status: 403, message: 'This token is not allowed to call this endpoint' },
  PERMISSION_DENIED: { status: 403, message: 'You do not have permission to perform this action' },
  LOGIN_FAILED: { status: 401, message: 'Invalid credentials' },
  '2FA_REQUIRED': { status: 401, message: 'Two-factor authentication code required' },
  ADMIN_2FA_SETUP_REQUIRED: { status: 403, message: 'Administrator accounts must set up two-factor authentication' },
  REAUTHENTICATION_REQUIRED: { status: 403, message: 'This action needs a recent sign-in: sign in again, or send your password '
    + '(and totp_code when two-factor authentication is on) with the request' },
  SESSION_LIMIT_EXCEEDED: { status: 409, message: 'Maximum number of active sessions reached' },
  DEVICE_LIMIT_EXCEEDED: { status: 409, message: 'Maximum number of devices reached' },
  ACCOUNT_LOCKED: { status: 423, message: 'Account temporarily locked after too many failed attempts' },
  MISSING_REFRESH_TOKEN: { status: 400, message: 'refresh_token is required' },
  REFRESH_FAILED: { status: 401, message: 'Refresh token is invalid, expired or revoked' },
  ORIGIN_NOT_ALLOWED: { status: 403, message: 'This origin may not use the refresh-token cookie' },
  // One-time codes, links, passwords
  OTP_INVALID: { status: 401, message: 'Invalid or expired code' },
  OTP_REQUIRED: { status: 400, message: 'No login code exists for this account; request one first' },
  INVALID_OTP: { status: 401, message: 'Invalid or expired verification code' },
  OTP_EXPIRED: { status: 401, message: 'Reset code is invalid or has expired' },
  VALIDATION_URL_REQUIRED: { status: 400, message: 'validation_url is required' },
  TOKEN_REQUIRED: { status: 400, message: 'token is required' },
  INVALID_TOKEN: { status: 401, message: 'Invalid, used or expired token' },
  INVALID_PASSWORD: { status: 400, message: 'Current password is incorrect' },
  PASSWORDLESS_ACCOUNT_USE_SET_INITIAL_PASSWORD: {
    status: 400, message: 'This account has no password; use password/set-initial/',
  },
  ALREADY_HAS_PASSWORD: { status: 400, message: 'This account already has a password' },
  PASSWORD_BREACHED: { status: 400, message: 'This password appears in a known data breach; choose another' },
  PASSWORD_REUSED: { status: 400, message: 'This password was used recently; choose another' },
  // Two-factor authentication
  '2FA_ALREADY_ENABLED': { status: 400, message: 'Two-factor authentication is already enabled' },
  INVALID_CODE: { status: 400, message: 'Invalid code' },
  CODE_REQUIRED: { status: 400, message: 'code is required' },
  // Social login
  INVALID_PROVIDER: { status: 400, message: 'Unknown provider' },
  PROVIDER_NOT_SUPPORTED: { status: 400, message: 'Provider not supported' },
  PROVIDER_AUTH_FAILED: { status: 401, message: 'The provider rejected the authentication' },
  SOCIAL_AUTH_FAILED: { status: 401, message: 'Social authentication failed' },
  CODE_EXCHANGE_FAILED: { status: 401, message: 'Could not exchange the authorization code' },
  MISSING_CODE: { status: 400, message: 'code is required' },
  MISSING_REDIRECT_URI: { status: 400, message: 'redirect_uri is required' },
  CALLBACK_ERROR: { status: 400, message: 'Callback error' },
  LAST_LOGIN_METHOD: { status: 400, message: 'This is the last way to sign in to the account: set a password or link another first' },
  INVALID_REDIRECT_URI: { status: 400, message: 'This address is not allowed for this application' },
  // RBAC and administration
  ROLE_NOT_FOUND: { status: 404, message: 'Role not found' },
  PERMISSIONS_NOT_FOUND: { status: 400, message: 'Some permissions were not found' },
  MISSING_PARAM: { status: 400, message: 'A required query parameter is missing' },
  CONFIRMATION_REQUIRED: { status: 400, message: 'Explicit confirmation is required' },
  ALREADY_REVOKED: { status: 400, message: 'Already revoked' },
  // Account deletion
  REQUEST_NOT_CONFIRMED: { status: 400, message: 'The deletion request has not been confirmed' },
  DELETION_ALREADY_PENDING: { status: 400, message: 'A deletion request is already pending' },
  NO_PENDING_DELETION: { status: 404, message: 'No pending deletion request' },
  // Organizations
  NOT_MEMBER: { status: 403, message: 'You are not a member of this organization' },
  ORG_NOT_FOUND: { status: 404, message: 'Organization not found' },
  INSUFFICIENT_PERMISSIONS: { status: 403, message: 'Missing organization permission' },
  NOT_OWNER: { status: 403, message: 'Only an owner can do this' },
  HAS_CHILDREN: { status: 400, message: 'The organization has sub-organizations' },
  INVALID_MEMBER_LIMIT: { status: 400, message: 'max_members cannot be below the current member count' },
  INVALID_ROLE_FOR_OWNER: { status: 400, message: 'The owner cannot be added as a regular member' },
  ALREADY_MEMBER: { status: 400, message: 'Already a member' },
  USER_NOT_FOUND: { status: 404, message: 'User not found' },
  MEMBER_NOT_FOUND: { status: 404, message: 'Member not found' },
  LAST_OWNER_CANNOT_BE_DEMOTED: { status: 400, message: 'The last owner cannot be demoted' },
  LAST_OWNER_CANNOT_BE_REMOVED: { status: 400, message: 'The last owner cannot be removed' },
  ORG_SLUG_REQUIRED: { status: 400, message: 'The X-Org-Slug header is required' },
  MEMBER_LIMIT_EXCEEDED: { status: 400, message: 'The organization has reached its member limit' },
  INVITATION_EMAIL_MISMATCH: { status: 403, message: 'This invitation was sent to another email address' },
  INVALID_INVITATION: { status: 400, message: 'The invitation is invalid, used or expired' },
  EMAIL_NOT_VERIFIED: { status: 403, message: 'Verify your email address before inviting anyone' },
  // Passkeys
  WEBAUTHN_DISABLED: { status: 400, message: 'Passkeys are not enabled' },
  INVALID_CREDENTIAL: { status: 400, message: 'Invalid credential' },
  DUPLICATE_CREDENTIAL: { status: 400, message: 'This credential is already registered' },
  INVALID_ASSERTION: { status: 400, message: 'Invalid assertion' },
  AUTH_FAILED: { status: 401, message: 'Authentication failed' },
  // Agents
  AGENT_PERMISSION_DENIED: { status: 403, message: 'The agent or its delegating user lacks this permission' },
  AGENT_TOKEN_INVALID: { status: 401, message: 'Invalid agent token' },
  AGENT_TOKEN_EXPIRED: { status: 401, message: 'The agent token has expired' },
  AGENT_TOKEN_REVOKED: { status: 401, message: 'The agent token has been revoked' },
  AGENT_TOKEN_SUSPENDED: { status: 403, message: 'The agent token is suspended' },
  AGENT_NOT_ALLOWED: { status: 403, message: 'Agents cannot use this endpoint' },
  AGENT_TOKEN_MISMATCH: { status: 403, message: 'This agent token is not the one named in the path' },
  DELEGATION_DEPTH_EXCEEDED: { status: 403, message: 'The delegation chain would be longer than allowed' },
  BUDGET_EXCEEDED: { status: 403, message: 'The agent token has reached its budget' },
  ACTION_CONFIRMATION_INVALID: { status: 403, message: 'The action confirmation is invalid, used, expired or for another request' },
  ACTION_REJECTED: { status: 403, message: 'The delegating user rejected this action' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export type FieldErrors = Record<string, string[]>;

export interface AppErrorOptions {
  status?: number;
  message?: string;
  details?: unknown;
  /** Extra top-level body fields (for example `retry_after`, `requires_2fa`). */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The body is `details` alone, a bare field map (organization-create validation, docs/organizations.md "Endpoints"). */
  bare?: boolean;
}

export class AppError extends Error {
  constructor(readonly code: ErrorCode, readonly opts: AppErrorOptions = {}) {
    super(opts.message ?? ERROR_CATALOGUE[code].message);
    this.name = 'AppError';
  }

  get status(): number {
    return this.opts.status ?? ERROR_CATALOGUE[this.code].status;
  }

  static validation(details: FieldErrors): AppError {
    return new AppError('VALIDATION_ERROR', { details });
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;
