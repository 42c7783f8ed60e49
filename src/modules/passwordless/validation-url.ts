/**
 * Where a magic link may point (docs/authentication.md "Passwordless login"): `validation_url` must match one of
 * the allowed addresses exactly on scheme, host, port and path. The query is not compared (a client may carry
 * its own state there); a fragment never reaches a server, so an address with one is refused.
 */
const MAX_URL_LENGTH = 2048;

function parseHttp(value: string): URL | null {
  if (value.length > MAX_URL_LENGTH || value.trim() !== value) return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname ? url : null;
  } catch {
    return null;
  }
}

/** Scheme, host and port (default ports normalised away by the URL parser) and the path, as one comparable key. */
const targetOf = (url: URL) => `${url.protocol}//${url.hostname}:${url.port}${url.pathname}`;

export function isAllowedValidationUrl(value: string, allowed: readonly string[]): boolean {
  const url = parseHttp(value);
  if (!url || url.hash || value.includes('#') || url.username || url.password) return false;
  const target = targetOf(url);
  return allowed.some((candidate) => {
    const parsed = parseHttp(candidate);
    return parsed !== null && targetOf(parsed) === target;
  });
}

/** `validation_url?token=…`, or `…&token=…` when the address already has a query. The token is base64url: no escaping. */
export const linkWithToken = (validationUrl: string, token: string): string =>
  `${validationUrl}${validationUrl.includes('?') ? '&' : '?'}token=${token}`;
