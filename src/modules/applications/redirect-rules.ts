/**
 * What an application may list. `redirect_uris` are compared exactly (scheme, host, port, path) with the address
 * a flow sends back to, so they must be absolute http(s) URLs; a fragment is never sent to a server and user
 * info has no place in a callback (RFC 6749 §3.1.2). `allowed_origins` are compared with the browser's `Origin`
 * header, which is always a bare, lower-case `scheme://host[:port]`.
 */
const MAX_URL_LENGTH = 2048;

function parseHttp(value: string): URL | null {
  if (value.length > MAX_URL_LENGTH || value.trim() !== value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

export function redirectUriProblem(value: string): string | null {
  const url = parseHttp(value);
  if (!url || !url.hostname) return `${value} is not an absolute http(s) URL.`;
  if (url.hash || value.includes('#')) return `${value} must not contain a fragment (#).`;
  if (url.username || url.password) return `${value} must not contain user credentials.`;
  return null;
}

export function originProblem(value: string): string | null {
  const url = parseHttp(value);
  if (!url || url.origin !== value) return `${value} is not a bare origin such as https://app.example.com (lower-case, no path or trailing slash).`;
  return null;
}

/** Problems of a list, one message per bad entry; duplicates are reported too. */
export function listProblems(values: readonly string[], problemOf: (v: string) => string | null): string[] {
  const problems = values.map(problemOf).filter((p): p is string => p !== null);
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) problems.push(`${v} is listed twice.`);
    seen.add(v);
  }
  return problems;
}
