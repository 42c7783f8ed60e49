import { createLimiter } from '../lib/limit.js';
import { userEmail } from '../lib/fixtures.js';
import type { LoadJob } from '../lib/types.js';

/** Signs in a few seeded accounts before a scenario (tokens for `me/` and refresh, cookies for get-session). */

export const gatehouseHeaders = (job: LoadJob): Record<string, string> => ({
  'content-type': 'application/json',
  'x-access-key': job.accessKey ?? '',
  'x-access-secret': job.accessSecret ?? '',
});

async function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return res;
}

/** `count` accounts starting at `first` (`fn` gets each one's e-mail and number), four at a time. */
async function forAccounts<T>(first: number, count: number, job: LoadJob, fn: (email: string, account: number) => Promise<T>): Promise<T[]> {
  const run = createLimiter(4);
  const indexes = Array.from({ length: count }, (_, k) => ((first - 1 + k) % job.userCount) + 1);
  return Promise.all(indexes.map((i) => run(() => fn(userEmail(i), i))));
}

/** The tokens of one signed-in account, and its number (`bench-user-<account>@example.com`). */
export interface GatehouseTokens { access_token: string; refresh_token: string; account: number }

/** Logs in `count` accounts, counting from the end of the seeded range so the login scenario's accounts stay fresh. */
export function gatehouseLogins(job: LoadJob, count: number): Promise<GatehouseTokens[]> {
  const url = `${job.origin}${job.apiPrefix}login/email/`;
  const first = Math.max(1, job.userCount - count + 1);
  return forAccounts(first, count, job, async (email, account) => {
    const tokens = (await (await postJson(url, gatehouseHeaders(job), { email, password: job.password })).json()) as GatehouseTokens;
    return { access_token: tokens.access_token, refresh_token: tokens.refresh_token, account };
  });
}

/** Signs in `count` better-auth accounts and returns their session cookies (`name=value`). */
export function betterAuthCookies(job: LoadJob, count: number): Promise<string[]> {
  const url = `${job.origin}/api/auth/sign-in/email`;
  const headers = { 'content-type': 'application/json', origin: job.origin };
  return forAccounts(1, count, job, async (email) => {
    const res = await postJson(url, headers, { email, password: job.password });
    const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!).filter((c) => c.includes('session_token='));
    if (!cookies.length) throw new Error('better-auth sign-in set no session cookie');
    return cookies.join('; ');
  });
}
