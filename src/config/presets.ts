import type { Config, PresetName } from './settings.js';

/**
 * Values each security preset sets (SPEC.md "Security presets", DECISIONS.md). Anything not listed
 * keeps its default; an explicit environment value always wins over the preset.
 */
export const PRESETS: Record<PresetName, Partial<Config>> = {
  development: {
    JWT_ACCESS_TOKEN_LIFETIME: 3600,
    JWT_REFRESH_TOKEN_LIFETIME: 30 * 24 * 3600,
    REFRESH_TOKEN_ROTATION: false,
    MAX_LOGIN_ATTEMPTS: 10,
    LOCKOUT_DURATION: 15 * 60,
    PASSWORD_MIN_LENGTH: 8,
    PASSWORD_HISTORY: 0,
    BREACH_CHECK_ENABLED: false,
    AUDIT_LOGGING_ENABLED: false,
    MAX_DEVICES: 0,
    DEVICE_LIMIT_ACTION: 'revoke_oldest',
    SECURITY_HEADERS_ENABLED: false,
    WEBAUTHN_ENABLED: false,
    DOCS_ENABLED: true,
  },
  medium: {
    JWT_ACCESS_TOKEN_LIFETIME: 15 * 60,
    JWT_REFRESH_TOKEN_LIFETIME: 7 * 24 * 3600,
    REFRESH_TOKEN_ROTATION: true,
    MAX_LOGIN_ATTEMPTS: 5,
    LOCKOUT_DURATION: 30 * 60,
    PASSWORD_MIN_LENGTH: 12,
    PASSWORD_HISTORY: 5,
    BREACH_CHECK_ENABLED: true,
    AUDIT_LOGGING_ENABLED: true,
    MAX_DEVICES: 5,
    DEVICE_LIMIT_ACTION: 'revoke_oldest',
    SECURITY_HEADERS_ENABLED: true,
    WEBAUTHN_ENABLED: false,
    DOCS_ENABLED: true,
  },
  robust: {
    JWT_ACCESS_TOKEN_LIFETIME: 5 * 60,
    JWT_REFRESH_TOKEN_LIFETIME: 24 * 3600,
    REFRESH_TOKEN_ROTATION: true,
    MAX_LOGIN_ATTEMPTS: 3,
    LOCKOUT_DURATION: 60 * 60,
    PASSWORD_MIN_LENGTH: 15,
    PASSWORD_HISTORY: 12,
    BREACH_CHECK_ENABLED: true,
    AUDIT_LOGGING_ENABLED: true,
    MAX_DEVICES: 2,
    DEVICE_LIMIT_ACTION: 'deny',
    SECURITY_HEADERS_ENABLED: true,
    WEBAUTHN_ENABLED: true,
    DOCS_ENABLED: false,
    SOCIAL_CALLBACK_TOKENS_IN_FRAGMENT: true,
  },
};
