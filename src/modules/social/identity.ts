/** What a provider says about the person signing in, whichever form (code, access token, ID token) proved it. */
export interface ProviderIdentity {
  /** The provider's stable identifier of the person: the identity. */
  subject: string;
  /** The address, kept only when the provider says it is verified (docs/social-login.md "Which account signs in"). */
  email: string | null;
  firstName: string;
  lastName: string;
}

/** Seconds a provider has to answer one call before the sign-in fails with 401 PROVIDER_AUTH_FAILED. */
export const PROVIDER_TIMEOUT_SECONDS = 5;

/** A provider call that failed (refused, timed out, or answered something unusable): only its code is ever logged. */
export class ProviderError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ProviderError';
  }
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim().slice(0, 150) : '');

/**
 * The identity in OpenID claims. `email_verified` must be true — for microsoft the claim is not reliable, and only
 * `xms_edov` (the domain owner verified it) counts.
 */
export function identityFromClaims(provider: string, claims: Record<string, unknown>): ProviderIdentity {
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new ProviderError('no_subject');
  const verified = provider === 'microsoft' ? claims.xms_edov === true : claims.email_verified === true;
  const email = typeof claims.email === 'string' && verified ? claims.email.trim().toLowerCase() : null;
  return { subject: claims.sub, email, firstName: text(claims.given_name), lastName: text(claims.family_name) };
}

/** A name in one string split at its first space (OAuth 2 providers give `name` only). */
export function splitName(name: unknown): { firstName: string; lastName: string } {
  const full = text(name);
  const at = full.indexOf(' ');
  return at < 0 ? { firstName: full, lastName: '' } : { firstName: full.slice(0, at), lastName: full.slice(at + 1).trim() };
}
