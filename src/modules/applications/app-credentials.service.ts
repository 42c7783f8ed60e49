import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { ChangeBus } from '../../db/change-bus.js';
import type { ApplicationKind, Db } from '../../db/database.js';
import { hashMatches, sha256Digest } from '../../security/compare.js';
import * as repo from './applications.repo.js';
import { admitsOrigin } from './kinds.js';

/** The application a request is made for, as the request carries it. */
export interface AppContext {
  id: number;
  name: string;
  kind: ApplicationKind;
  redirect_uris: string[];
  allowed_origins: string[];
  /** Where RP-initiated logout may send the person back (docs/oauth.md "Clients"). */
  post_logout_redirect_uris: string[];
}

/** A key-only request: the public application it names, or why it is refused. */
export type PublicOutcome = AppContext | 'APP_AUTH_REQUIRED' | 'APP_AUTH_INVALID';

/** What this instance knows about one access key for a few seconds. */
interface AuthEntry {
  /** The active application with this key; null for an unknown key or an inactive application. */
  app: AppContext | null;
  /** The kind of the application with this key, active or not; null for an unknown key. */
  kind: ApplicationKind | null;
  /** The secret's SHA-256; a dummy for unknown keys and public applications, so every secret costs the same to check. */
  secretDigest: Buffer;
  until: number;
}

type Deps = { db: Db; clock: Clock; changes: Pick<ChangeBus, 'subscribe'> };

/** Authentication answers are cached briefly per instance: the lookup is on every request's path. */
const AUTH_CACHE_MS = 5_000;
const ORIGINS_CACHE_MS = 5_000;
// Compared against when the key is unknown or names a public application, so those cost the same as wrong secrets.
const DUMMY_SECRET_DIGEST = randomBytes(32);

export const toContext = (row: repo.ApplicationRow): AppContext => ({
  id: row.id, name: row.name, kind: row.kind, redirect_uris: row.redirect_uris, allowed_origins: row.allowed_origins,
  post_logout_redirect_uris: row.post_logout_redirect_uris,
});

/**
 * The per-request credential check: which application a request's `X-Access-Key` (and `X-Access-Secret`) names, and
 * which origins CORS admits, from a short per-instance cache. The administration of applications
 * (applications.service.ts) announces every change, and the cache is dropped.
 */
export function createAppCredentialService({ db, clock, changes }: Deps) {
  const authCache = new Map<string, AuthEntry>();
  let origins: { set: Set<string>; until: number } | undefined;

  /**
   * Key and secret: the confidential application they name, or null. The secret is hashed and compared in constant
   * time whatever the key names — unknown, public (no secret: a dummy hash) or confidential — so timing tells nothing.
   */
  const checkSecret = (entry: AuthEntry, accessSecret: string): AppContext | null =>
    (hashMatches(accessSecret, entry.secretDigest) && entry.app?.kind === 'confidential' ? entry.app : null);

  /**
   * Key only (docs/decisions.md "Public applications"): a public application, from one of its origins. Any other key is answered as
   * a missing secret, unknown and confidential keys alike; a public application that is inactive or called from
   * elsewhere is invalid.
   */
  const checkOrigin = (entry: AuthEntry, origin: string | undefined): PublicOutcome => {
    if (entry.kind !== 'public') return 'APP_AUTH_REQUIRED';
    return entry.app && admitsOrigin(entry.app, origin) ? entry.app : 'APP_AUTH_INVALID';
  };

  /** This instance's fresh entry for the key, or undefined. */
  function cachedEntry(accessKey: string): AuthEntry | undefined {
    const entry = authCache.get(accessKey);
    return entry && entry.until >= clock.now().getTime() ? entry : undefined;
  }

  /** The entry for the key, read from the database when this instance has none fresh (unknown keys are cached too). */
  async function entryFor(accessKey: string): Promise<AuthEntry> {
    const cached = cachedEntry(accessKey);
    if (cached) return cached;
    const row = await repo.findApplicationForAuth(db, accessKey);
    const active = row && row.is_active ? row : undefined;
    const entry: AuthEntry = {
      app: active ? toContext(active) : null,
      kind: row?.kind ?? null,
      secretDigest: active?.secret_hash ? sha256Digest(active.secret_hash) : DUMMY_SECRET_DIGEST,
      until: clock.now().getTime() + AUTH_CACHE_MS,
    };
    if (authCache.size > 10_000) authCache.clear();
    authCache.set(accessKey, entry);
    return entry;
  }

  /**
   * The answer of `authenticate` when this instance knows the key (no I/O), or undefined when it must ask the
   * database: lets the per-request hook stay synchronous on the common path.
   */
  function authenticateCached(accessKey: string, accessSecret: string): AppContext | null | undefined {
    const entry = cachedEntry(accessKey);
    return entry ? checkSecret(entry, accessSecret) : undefined;
  }

  /** The confidential application these credentials identify, or null. Secrets are compared as SHA-256 in constant time. */
  async function authenticate(accessKey: string, accessSecret: string): Promise<AppContext | null> {
    return checkSecret(await entryFor(accessKey), accessSecret);
  }

  /**
   * `authenticatePublic` when this instance knows the key (no I/O), or undefined. `origin` is the request's browser
   * origin: its `Origin` header, or the service's own origin for a same-origin GET or HEAD (see http/browser-origin.ts).
   */
  function authenticatePublicCached(accessKey: string, origin: string | undefined): PublicOutcome | undefined {
    const entry = cachedEntry(accessKey);
    return entry ? checkOrigin(entry, origin) : undefined;
  }

  /** A key sent without a secret: the public application it names when `origin` is one of its allowed origins. */
  async function authenticatePublic(accessKey: string, origin: string | undefined): Promise<PublicOutcome> {
    return checkOrigin(await entryFor(accessKey), origin);
  }

  /** The active application with this access key, or null: an OAuth client as the authorization server sees it (docs/oauth.md). */
  async function activeApplication(accessKey: string): Promise<AppContext | null> {
    return (await entryFor(accessKey)).app;
  }

  /** Whether some active application lists `origin` (a CORS preflight, which carries no credentials). */
  async function isAllowedOrigin(origin: string): Promise<boolean> {
    const now = clock.now().getTime();
    if (!origins || origins.until < now) {
      const rows = await repo.listActiveOrigins(db);
      origins = { set: new Set(rows.flatMap((r) => r.allowed_origins)), until: now + ORIGINS_CACHE_MS };
    }
    return origins.set.has(origin);
  }

  /** Every instance drops its cached credentials and origins, this one at once (docs/decisions.md "Several instances"). */
  changes.subscribe('applications', () => {
    authCache.clear();
    origins = undefined;
  });

  return { authenticate, authenticateCached, authenticatePublic, authenticatePublicCached, isAllowedOrigin, activeApplication };
}

export type AppCredentialService = ReturnType<typeof createAppCredentialService>;
