import type { Config } from '../../config/settings.js';
import { AppError } from '../../core/errors.js';

/** Whether `value` is an `http(s)` URL, as an OpenID issuer must be (OpenID Connect Discovery 1.0 §3). */
export const isUrlIssuer = (value: string): boolean => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * Why there is no discovery document, as the 404 FEATURE_DISABLED of a feature that is off, naming the setting to change
 * (docs/configuration.md "Feature switches"); undefined when there is one. A symmetric algorithm is never advertised.
 */
export function discoveryUnavailable(algorithm: Config['JWT_ALGORITHM'], issuer: string): AppError | undefined {
  if (algorithm === 'HS256') {
    return new AppError('FEATURE_DISABLED', {
      message: 'Access tokens are signed with HS256, a shared secret: there are no public keys to discover. '
        + 'Set SVC_JWT_ALGORITHM to EdDSA, ES256 or RS256 to publish them',
      details: { setting: 'SVC_JWT_ALGORITHM' },
    });
  }
  if (!isUrlIssuer(issuer)) {
    return new AppError('FEATURE_DISABLED', {
      message: 'SVC_JWT_ISSUER is not a URL, which an OpenID issuer must be: set it to the service\'s URL, or unset it to use SVC_PUBLIC_URL',
      details: { setting: 'SVC_JWT_ISSUER' },
    });
  }
  return undefined;
}
