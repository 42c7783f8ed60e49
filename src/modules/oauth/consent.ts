import type { Config } from '../../config/settings.js';
import { GRANT_DEFAULTS, type DelegationLimits } from '../agents/grant-delegations.service.js';
import { OPENID_SCOPES } from './jwt-access-tokens.js';

/**
 * What consent decides beyond the scopes (docs/oauth.md "Consent"): the organization an `org:<slug>` scope binds the
 * grant to, and the limits of the grant's delegation — chosen by the person for an agent client, the defaults for one
 * of Gatehouse's applications.
 */

/** `org:<slug>`: binds a grant to one organization. */
const ORG_SCOPE = /^org:([a-z0-9][a-z0-9-]{0,48}[a-z0-9])$/;

/** The organization slugs a space-separated scope names, in order. */
export const orgSlugsIn = (scope: string | undefined): string[] =>
  (scope ?? '').split(' ').map((s) => ORG_SCOPE.exec(s)?.[1]).filter((s): s is string => s !== undefined);

export const isOrgScope = (scope: string) => ORG_SCOPE.test(scope);

/** The permission scopes of a grant's resources: what its delegation is granted. */
export const permissionsOf = (resources: Record<string, string> | undefined): string[] =>
  [...new Set(Object.values(resources ?? {}).flatMap((s) => s.split(' ')))]
    .filter((s) => s !== '' && !OPENID_SCOPES.has(s) && !isOrgScope(s)).sort();

const HOUR = 3600;
const LIFETIMES = [HOUR, 8 * HOUR, 24 * HOUR, 7 * 24 * HOUR, 30 * 24 * HOUR];
export const RATE_CHOICES = [10, 60, 300];
/** The largest budget the consent form takes, in USD (the column keeps 12 digits before the point). */
const BUDGET_MAX = 1_000_000;

/** The limits consent offers an agent client, and what a verified client's grant gets. */
export interface LimitChoices {
  lifetimes: number[];
  rates: number[];
  /** The default choices: the longest lifetime allowed, 60 requests a minute. */
  lifetime: number;
  rate: number;
}

/** An agent client's grant lives at most as long as an agent token may, and never beyond a refresh token. */
export function limitChoices(config: Config): LimitChoices {
  const longest = Math.min(config.AIRS_MAX_TOKEN_LIFETIME, config.JWT_REFRESH_TOKEN_LIFETIME);
  const allowed = LIFETIMES.filter((s) => s <= longest);
  const lifetimes = allowed.length > 0 ? allowed : [longest];
  return { lifetimes, rates: RATE_CHOICES, lifetime: lifetimes[lifetimes.length - 1]!, rate: GRANT_DEFAULTS.maxRequestsPerMinute };
}

/** A grant's lifetime (seconds) and its delegation's limits. */
export type GrantLimits = DelegationLimits & { lifetime: number };

/** A verified client's grant: as long as its refresh tokens, the configured rate, no budget. */
export const verifiedLimits = (config: Config): GrantLimits =>
  ({ lifetime: config.JWT_REFRESH_TOKEN_LIFETIME, maxRequestsPerMinute: config.OAUTH_GRANT_MAX_REQUESTS_PER_MINUTE, budgetLimitUsd: null });

/**
 * The limits an agent client's consent form chose: one of the offered lifetimes and rates (absent: the defaults) and an
 * optional budget in USD (up to 8 decimals, at most a million). Null when a value is not one the form offers.
 */
export function chosenLimits(form: Record<string, string | undefined>, choices: LimitChoices): GrantLimits | null {
  const lifetime = form.lifetime === undefined ? choices.lifetime : Number(form.lifetime);
  const rate = form.max_requests_per_minute === undefined ? choices.rate : Number(form.max_requests_per_minute);
  if (!choices.lifetimes.includes(lifetime) || !choices.rates.includes(rate)) return null;
  const budgetText = (form.budget_limit_usd ?? '').trim();
  if (budgetText === '') return { lifetime, maxRequestsPerMinute: rate, budgetLimitUsd: null };
  if (!/^\d{1,7}(\.\d{1,8})?$/.test(budgetText)) return null;
  const budget = Number(budgetText);
  return budget > BUDGET_MAX ? null : { lifetime, maxRequestsPerMinute: rate, budgetLimitUsd: budget };
}
