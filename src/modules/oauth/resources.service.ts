import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { ChangeBus } from '../../db/change-bus.js';
import type { Db } from '../../db/database.js';
import { hashMatches, sha256Digest } from '../../security/compare.js';
import { randomHex, sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import { isLoopbackHttp } from './loopback.js';
import * as repo from './resources.repo.js';
import { toResource, type CreateResourceInput, type PatchResourceInput } from './resources.schemas.js';

type Deps = { db: Db; clock: Clock; audit: AuditService; changes: Pick<ChangeBus, 'publish' | 'subscribe'> };

/** A resource's credentials are cached briefly per instance: introspection checks them on every call. */
const AUTH_CACHE_MS = 5_000;

/** Who changed a resource, for the audit trail: a person through the API, or the command line (all null). */
export interface ChangeOrigin {
  actor_id: number | null;
  application_id: number | null;
  ip_address: string | null;
  user_agent: string | null;
  request_id: string | null;
}

const SCOPE_CODE = /^[a-z][a-z0-9_.:-]*$/i;
// Compared against when a client id names no resource, so an unknown id costs as much as a wrong secret.
const DUMMY_DIGEST = randomBytes(32);

/** Why a resource URI cannot be an audience, or null: https (http on loopback), no fragment, no credentials. */
function uriProblem(uri: string): string | null {
  if (!URL.canParse(uri)) return `${uri} is not an absolute URL.`;
  const url = new URL(uri);
  if (url.protocol !== 'https:' && !isLoopbackHttp(url)) {
    return `${uri} must be an https URL (http only on a loopback address).`;
  }
  if (url.hash || uri.includes('#')) return `${uri} must not contain a fragment (#).`;
  if (url.username || url.password) return `${uri} must not contain credentials.`;
  return null;
}

/**
 * The APIs that accept Gatehouse's OAuth access tokens (docs/oauth.md "Resources"): `resource` on an authorization
 * or token request must name one, its tokens are JWTs whose `aud` is its URI, and it introspects with credentials of
 * its own (the secret shown once, stored as SHA-256).
 */
export function createOauthResourceService({ db, clock, audit, changes }: Deps) {
  /** Rows by client id (unknown ids too, as null), for AUTH_CACHE_MS; dropped on every instance when a resource changes. */
  const cache = new Map<string, { row: Awaited<ReturnType<typeof repo.findResourceForAuth>> | null; until: number }>();
  changes.subscribe('oauth-resources', () => cache.clear());
  /** Announces a change once its transaction has committed: every instance drops what it cached. */
  const announce = () => changes.publish('oauth-resources');

  async function rowFor(clientId: string) {
    if (!clientId.startsWith('rs_')) return null;
    const now = clock.now().getTime();
    const cached = cache.get(clientId);
    if (cached && cached.until >= now) return cached.row;
    const row = (await repo.findResourceForAuth(db, clientId)) ?? null;
    if (cache.size > 10_000) cache.clear();
    cache.set(clientId, { row, until: now + AUTH_CACHE_MS });
    return row;
  }

  function checkScopes(scopes: string[] | undefined) {
    const bad = (scopes ?? []).filter((s) => !SCOPE_CODE.test(s));
    if (bad.length) throw AppError.validation({ scopes: bad.map((s) => `${s} is not a permission code.`) });
  }

  async function create(input: CreateResourceInput, origin: ChangeOrigin) {
    const problem = uriProblem(input.uri);
    if (problem) throw AppError.validation({ uri: [problem] });
    checkScopes(input.scopes);
    const credentials = { client_id: `rs_${randomHex(16)}`, client_secret: randomBytes(32).toString('base64url') };
    const now = clock.now();
    const row = await db.transaction().execute(async (trx) => {
      if (await repo.findResourceByUri(trx, input.uri)) throw AppError.validation({ uri: [`${input.uri} is registered already.`] });
      const created = await repo.insertResource(trx, { uri: input.uri, name: input.name.trim(), scopes: JSON.stringify([...new Set(input.scopes ?? [])]),
        client_id: credentials.client_id, secret_hash: sha256Hex(credentials.client_secret), created_at: now, updated_at: now });
      await audit.record({ event_type: 'oauth_resource_created', ...origin, details: { resource_id: created.id, uri: created.uri } }, trx);
      return created;
    });
    // An id looked up before it existed is cached as unknown: drop it.
    await announce();
    return { resource: toResource(row), credentials };
  }

  const list = async () => {
    const rows = await repo.listResources(db);
    return { results: rows.map(toResource), count: rows.length };
  };

  async function get(id: number) {
    const row = await repo.findResource(db, id);
    if (!row) throw new AppError('NOT_FOUND');
    return toResource(row);
  }

  async function update(id: number, input: PatchResourceInput, origin: ChangeOrigin) {
    checkScopes(input.scopes);
    const row = await db.transaction().execute(async (trx) => {
      const updated = await repo.updateResource(trx, id, {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.scopes !== undefined ? { scopes: JSON.stringify([...new Set(input.scopes)]) } : {}),
        updated_at: clock.now(),
      });
      if (!updated) throw new AppError('NOT_FOUND');
      await audit.record({ event_type: 'oauth_resource_updated', ...origin, details: { resource_id: id, fields: Object.keys(input) } }, trx);
      return updated;
    });
    await announce();
    return toResource(row);
  }

  async function remove(id: number, origin: ChangeOrigin) {
    await db.transaction().execute(async (trx) => {
      const gone = await repo.deleteResource(trx, id);
      if (!gone) throw new AppError('NOT_FOUND');
      await audit.record({ event_type: 'oauth_resource_deleted', severity: 'warning', ...origin, details: { resource_id: id, uri: gone.uri } }, trx);
    });
    await announce();
  }

  /** The registered resource with this URI, or undefined (the provider's resource indicator check). */
  const byUri = (uri: string) => repo.findResourceByUri(db, uri);

  /** The resource these credentials identify, or null: the secret compared as SHA-256 in constant time, unknown ids too. */
  async function authenticate(clientId: string, secret: string) {
    const row = await rowFor(clientId);
    const matches = hashMatches(secret, row ? sha256Digest(row.secret_hash) : DUMMY_DIGEST);
    return row && matches ? toResource(row) : null;
  }

  /** The resource with this client id (its metadata as a client of the provider), or undefined. */
  const byClientId = async (clientId: string) => {
    const row = await rowFor(clientId);
    return row ? toResource(row) : undefined;
  };

  return { create, list, get, update, remove, byUri, authenticate, byClientId };
}

export type OauthResourceService = ReturnType<typeof createOauthResourceService>;
