import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { safeEqual } from '../../security/compare.js';
import { randomHex, sha256Hex } from '../../security/random.js';
import * as repo from './applications.repo.js';

export interface AppContext {
  id: number;
  name: string;
  redirect_uris: string[];
  allowed_origins: string[];
}

export interface NewApplicationInput {
  name: string;
  description?: string;
  redirect_uris?: string[];
  allowed_origins?: string[];
  created_by?: number | null;
}

export interface Credentials {
  access_key: string;
  access_secret: string;
}

type Deps = { db: Db; clock: Clock };

/** Authentication answers are cached briefly per instance: the lookup is on every request's path. */
const AUTH_CACHE_MS = 5_000;
const ORIGINS_CACHE_MS = 5_000;
// Compared against when the key is unknown, so unknown keys cost the same as wrong secrets.
const DUMMY_SECRET_HASH = sha256Hex(randomBytes(32));

export function newCredentials(): Credentials & { secret_hash: string } {
  const access_secret = randomBytes(32).toString('base64url');
  return { access_key: randomHex(32), access_secret, secret_hash: sha256Hex(access_secret) };
}

export function createApplicationService({ db, clock }: Deps) {
  const authCache = new Map<string, { app: AppContext | null; secretHash: string; until: number }>();
  let origins: { set: Set<string>; until: number } | undefined;

  const toContext = (row: repo.ApplicationRow): AppContext => ({
    id: row.id, name: row.name, redirect_uris: row.redirect_uris, allowed_origins: row.allowed_origins,
  });

  async function create(input: NewApplicationInput) {
    const { secret_hash, ...credentials } = newCredentials();
    const application = await repo.insertApplication(db, {
      name: input.name,
      description: input.description ?? '',
      access_key: credentials.access_key,
      secret_hash,
      redirect_uris: JSON.stringify(input.redirect_uris ?? []),
      allowed_origins: JSON.stringify(input.allowed_origins ?? []),
      created_by: input.created_by ?? null,
    });
    invalidate();
    return { application, credentials };
  }

  /** The application these credentials identify, or null. Secrets are compared as SHA-256 in constant time. */
  async function authenticate(accessKey: string, accessSecret: string): Promise<AppContext | null> {
    const now = clock.now().getTime();
    let entry = authCache.get(accessKey);
    if (!entry || entry.until < now) {
      const row = await repo.findApplicationForAuth(db, accessKey);
      entry = {
        app: row && row.is_active ? toContext(row) : null,
        secretHash: row && row.is_active ? row.secret_hash : DUMMY_SECRET_HASH,
        until: now + AUTH_CACHE_MS,
      };
      if (authCache.size > 10_000) authCache.clear();
      authCache.set(accessKey, entry);
    }
    const ok = safeEqual(sha256Hex(accessSecret), entry.secretHash);
    return ok ? entry.app : null;
  }

  async function isAllowedOrigin(origin: string): Promise<boolean> {
    const now = clock.now().getTime();
    if (!origins || origins.until < now) {
      const rows = await repo.listActiveOrigins(db);
      origins = { set: new Set(rows.flatMap((r) => r.allowed_origins)), until: now + ORIGINS_CACHE_MS };
    }
    return origins.set.has(origin);
  }

  /** Creates "Default App" when no application exists; returns its credentials only when it was created. */
  async function ensureDefault(name = 'Default App') {
    if ((await repo.countApplications(db)) > 0) return null;
    return create({ name, description: 'Created on first start' });
  }

  function invalidate() {
    authCache.clear();
    origins = undefined;
  }

  return { create, authenticate, isAllowedOrigin, ensureDefault, invalidate, count: () => repo.countApplications(db) };
}

export type ApplicationService = ReturnType<typeof createApplicationService>;
