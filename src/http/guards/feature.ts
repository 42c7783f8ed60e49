import type { FastifyRequest } from 'fastify';
import { envName, type Config, type SettingKey } from '../../config/settings.js';
import { AppError } from '../../core/errors.js';

/** Boolean settings that switch a feature on. */
export type FeatureSwitch = 'OTP_LOGIN_ENABLED' | 'MAGIC_LINK_ENABLED' | 'WEBAUTHN_ENABLED' | 'ORGANIZATIONS_ENABLED'
  | 'REFRESH_TOKEN_COOKIE_ENABLED' | 'DOCS_ENABLED' | 'AIRS_ENABLED' | 'OAUTH_ENABLED';

/** The passkeys keep their own answer, 400 WEBAUTHN_DISABLED (docs/passkeys.md); every other switch answers 404 FEATURE_DISABLED. */
const DISABLED_ANSWER: Partial<Record<SettingKey, 'WEBAUTHN_DISABLED'>> = { WEBAUTHN_ENABLED: 'WEBAUTHN_DISABLED' };

/**
 * The answer of a feature whose switch is off, naming the setting that turns it on (docs/configuration.md "Feature
 * switches"): `details: {setting: "SVC_…_ENABLED"}`.
 */
export const featureDisabled = (name: SettingKey): AppError =>
  new AppError(DISABLED_ANSWER[name] ?? 'FEATURE_DISABLED', { details: { setting: envName(name) } });

/** Routes are always registered; a feature that is off answers `featureDisabled`. */
export const createFeatureGuard = (config: Config) => (name: FeatureSwitch) => async (_req: FastifyRequest) => {
  if (!config[name]) throw featureDisabled(name);
};
