import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config/settings.js';
import { AppError } from '../../core/errors.js';

/** Boolean settings that switch a feature on. */
export type FeatureSwitch = 'OTP_LOGIN_ENABLED' | 'MAGIC_LINK_ENABLED' | 'WEBAUTHN_ENABLED' | 'ORGANIZATIONS_ENABLED'
  | 'REFRESH_TOKEN_COOKIE_ENABLED' | 'DOCS_ENABLED' | 'AIRS_ENABLED';

/** SPEC.md's own answers for a feature that is off, where it names one (DECISIONS.md "Passkeys"). */
const DISABLED_ANSWER: Partial<Record<FeatureSwitch, 'WEBAUTHN_DISABLED'>> = { WEBAUTHN_ENABLED: 'WEBAUTHN_DISABLED' };

/** Routes are always registered; a feature that is off answers 404 FEATURE_DISABLED (or SPEC.md's own code for it). */
export const createFeatureGuard = (config: Config) => (name: FeatureSwitch) => async (_req: FastifyRequest) => {
  if (!config[name]) throw new AppError(DISABLED_ANSWER[name] ?? 'FEATURE_DISABLED');
};
