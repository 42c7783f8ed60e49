import { createHash, randomBytes } from 'node:crypto';
import { AGENT_PERMISSION, userEmail } from '../lib/fixtures.js';
import { createLimiter } from '../lib/limit.js';
import type { LoadJob, OauthFixture } from '../lib/types.js';

/**
 * The OAuth scenarios' preparation: each account goes once through the authorization server's pages (sign-in, consent)
 * as a browser would, and its client exchanges the code — what a person does once per client. What stays is the
 * pages' session cookie (a later authorization request for the same scopes is answered with a code at once) and the
 * grant's tokens.
 */

/** One account's grant: its access token (a JWT for the resource), the pages' cookies, and a PKCE pair. */
export interface OauthGrant {
  accessToken: string;
  cookie: string;
  verifier: string;
  challenge: string;
}

const SCOPE = `openid ${AGENT_PERMISSION}`;

/** A tiny cookie jar: the pages' cookies by name, sent back on every request. */
function jar() {
  const cookies = new Map<string, string>();
  return {
    take(res: Response) {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const at = pair!.indexOf('=');
        cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
    },
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

/** The authorization request for the bench's resource, with `challenge`. */
export function authorizationUrl(job: LoadJob, oauth: OauthFixture, challenge: string): string {
  const query = new URLSearchParams({ client_id: oauth.clientId, redirect_uri: oauth.redirectUri, response_type: 'code', scope: SCOPE,
    resource: oauth.resource, state: 'bench', code_challenge: challenge, code_challenge_method: 'S256' });
  return `${job.origin}/oauth/authorize?${query}`;
}

/** The code of a redirect to the client, or undefined. */
export const codeOf = (location: string | null | undefined): string | undefined =>
  (location ? new URL(location, 'https://x.invalid').searchParams.get('code') ?? undefined : undefined);

/** The token request of the bench's client: confidential, its secret by `client_secret_basic`. */
export function tokenRequest(oauth: OauthFixture, code: string, verifier: string) {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${oauth.clientId}:${oauth.clientSecret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: oauth.redirectUri, code_verifier: verifier,
      resource: oauth.resource }).toString(),
  };
}

/** Follows the pages for account `i` and exchanges the code. */
async function grantFor(job: LoadJob, oauth: OauthFixture, i: number): Promise<OauthGrant> {
  const cookies = jar();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const send = async (url: string, form?: Record<string, string>) => {
    const res = await fetch(new URL(url, job.origin), {
      method: form ? 'POST' : 'GET', redirect: 'manual', signal: AbortSignal.timeout(30_000),
      headers: { cookie: cookies.header(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: job.origin } : {}) },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    cookies.take(res);
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };
  /** Posts the page's form with `fields` (the CSRF field comes from the page). */
  const submit = (html: string, fields: Record<string, string>) => {
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    const csrf = /name="csrf_token" value="([^"]*)"/.exec(html)?.[1];
    if (!action || !csrf) throw new Error(`no form on the page: ${html.slice(0, 200)}`);
    return send(action, { csrf_token: csrf, ...fields });
  };
  let answer = await send(authorizationUrl(job, oauth, challenge));
  for (let step = 0; step < 10; step++) {
    const code = codeOf(answer.location);
    if (code) {
      const res = await fetch(`${job.origin}/oauth/token`, { method: 'POST', ...tokenRequest(oauth, code, verifier) });
      const tokens = await res.json() as { access_token?: string };
      if (!tokens.access_token) throw new Error(`token endpoint answered ${res.status}: ${JSON.stringify(tokens)}`);
      return { accessToken: tokens.access_token, cookie: cookies.header(), verifier, challenge };
    }
    if (answer.location) answer = await send(answer.location);
    else if (answer.html.includes('name="password"')) answer = await submit(answer.html, { email: userEmail(i), password: job.password });
    else if (answer.html.includes('name="decision"')) answer = await submit(answer.html, { decision: 'approve' });
    else throw new Error(`the authorization pages answered ${answer.status}: ${answer.html.slice(0, 300)}`);
  }
  throw new Error('the authorization flow did not end');
}

/** Grants for accounts 1..count (they hold AGENT_PERMISSION: `setup/seed-agent-tokens.ts`), four at a time. */
export function oauthGrants(job: LoadJob, count: number): Promise<OauthGrant[]> {
  if (!job.oauth) throw new Error('the OAuth scenarios need the client and resource of the bench database');
  const run = createLimiter(4);
  return Promise.all(Array.from({ length: count }, (_, k) => run(() => grantFor(job, job.oauth!, k + 1))));
}
