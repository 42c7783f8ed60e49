import { PROVIDER_TIMEOUT_SECONDS, ProviderError } from './identity.js';

/**
 * One call to a provider's JSON endpoint outside `openid-client`: bounded by PROVIDER_TIMEOUT_SECONDS, never following a
 * redirect, and answering the parsed object or array. A failure — unreachable, a non-2xx status, anything that is not a
 * JSON object — is a ProviderError naming only its kind (the sign-in answers 401, never the server 500).
 */
export async function callProvider(url: string | URL, init: RequestInit = {}): Promise<Record<string, unknown> | unknown[]> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_SECONDS * 1000),
      headers: { accept: 'application/json', 'user-agent': 'Gatehouse', ...(init.headers as Record<string, string> | undefined) } });
  } catch {
    throw new ProviderError('unreachable');
  }
  if (!res.ok) throw new ProviderError(`http_${res.status}`);
  try {
    const body = await res.json() as unknown;
    if (typeof body !== 'object' || body === null) throw new Error('not an object');
    return body as Record<string, unknown> | unknown[];
  } catch {
    throw new ProviderError('invalid_response');
  }
}
