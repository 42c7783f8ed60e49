import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import { AppError, type FieldErrors } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { ChangeBus } from '../../db/change-bus.js';
import type { Db, Executor, RowUpdate } from '../../db/database.js';
import { safeEqual } from '../../security/compare.js';
import { randomHex, sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import { auditOrigin, type Actor } from '../rbac/actor.js';
import { displayName } from '../../core/fields.js';
import { orderOf } from '../../core/listing.js';
import * as repo from './applications.repo.js';
import {
  toApplication, toCredentialsAnswer, type ApplicationListInput, type CreateApplicationInput, type UpdateApplicationInput,
} from './applications.schemas.js';
import { listProblems, originProblem, redirectUriProblem } from './redirect-rules.js';

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
  is_active?: boolean;
  created_by?: number | null;
}

export interface Credentials {
  access_key: string;
  access_secret: string;
}

type Deps = { db: Db; clock: Clock; audit: AuditService; changes: Pick<ChangeBus, 'publish' | 'subscribe'> };

export const REGENERATE_PHRASE = 'REGENERATE';
const SECRET_WARNING = 'Save the access_secret now: it is never shown again.';

/** Authentication answers are cached briefly per instance: the lookup is on every request's path. */
const AUTH_CACHE_MS = 5_000;
const ORIGINS_CACHE_MS = 5_000;
// Compared against when the key is unknown, so unknown keys cost the same as wrong secrets.
const DUMMY_SECRET_HASH = sha256Hex(randomBytes(32));

export function newCredentials(): Credentials & { secret_hash: string } {
  const access_secret = randomBytes(32).toString('base64url');
  return { access_key: randomHex(32), access_secret, secret_hash: sha256Hex(access_secret) };
}

export function createApplicationService({ db, clock, audit, changes }: Deps) {
  const authCache = new Map<string, { app: AppContext | null; secretHash: string; until: number }>();
  let origins: { set: Set<string>; until: number } | undefined;

  const toContext = (row: repo.ApplicationRow): AppContext => ({
    id: row.id, name: row.name, redirect_uris: row.redirect_uris, allowed_origins: row.allowed_origins,
  });

  async function insert(trx: Executor, input: NewApplicationInput) {
    const { secret_hash, ...credentials } = newCredentials();
    const now = clock.now();
    const application = await repo.insertApplication(trx, {
      name: input.name,
      description: input.description ?? '',
      access_key: credentials.access_key,
      secret_hash,
      is_active: input.is_active ?? true,
      redirect_uris: JSON.stringify(input.redirect_uris ?? []),
      allowed_origins: JSON.stringify(input.allowed_origins ?? []),
      created_by: input.created_by ?? null,
      created_at: now,
      updated_at: now,
    });
    return { application, credentials };
  }

  async function create(input: NewApplicationInput) {
    const created = await insert(db, input);
    await invalidate();
    return created;
  }

  const check = (entry: { app: AppContext | null; secretHash: string }, accessSecret: string) =>
    (safeEqual(sha256Hex(accessSecret), entry.secretHash) ? entry.app : null);

  /**
   * The answer of `authenticate` when this instance knows the key (no I/O), or undefined when it must ask the
   * database: lets the per-request hook stay synchronous on the common path.
   */
  function authenticateCached(accessKey: string, accessSecret: string): AppContext | null | undefined {
    const entry = authCache.get(accessKey);
    return entry && entry.until >= clock.now().getTime() ? check(entry, accessSecret) : undefined;
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
    return check(entry, accessSecret);
  }

  /**
   * The active application an access key names, without its secret: the browser social-login flow, where the exact
   * redirect allow-list is the protection (as for a public OAuth client).
   */
  async function byAccessKey(accessKey: string): Promise<AppContext | null> {
    const row = await repo.findApplicationForAuth(db, accessKey);
    return row && row.is_active ? toContext(row) : null;
  }

  /** The active application with this id (the browser flow's callback, which carries no application headers). */
  async function byId(id: number): Promise<AppContext | null> {
    const row = await repo.findApplicationById(db, id);
    return row && row.is_active ? toContext(row) : null;
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

  /** Every instance drops its cached credentials and origins, this one at once (DECISIONS.md "Several instances"). */
  changes.subscribe('applications', () => {
    authCache.clear();
    origins = undefined;
  });
  const invalidate = async (): Promise<void> => { await changes.publish('applications'); };

  /** 400 naming each redirect URI or origin that could not be matched safely. */
  function checkLists(input: { redirect_uris?: string[]; allowed_origins?: string[] }) {
    const errors: FieldErrors = {};
    const uris = listProblems(input.redirect_uris ?? [], redirectUriProblem);
    const origins = listProblems(input.allowed_origins ?? [], originProblem);
    if (uris.length) errors.redirect_uris = uris;
    if (origins.length) errors.allowed_origins = origins;
    if (Object.keys(errors).length) throw AppError.validation(errors);
  }

  /** The caller would lock itself out: refused, another application must do it. */
  function refuseSelf(actor: Actor, id: number, what: string) {
    if (actor.meta.applicationId === id) {
      throw AppError.validation({ non_field_errors: [`The application making this request cannot ${what} itself.`] });
    }
  }

  async function list(query: ApplicationListInput) {
    const page = pageRequest(query);
    const { rows, count } = await repo.listApplications(db, { search: query.search, isActive: query.is_active },
      orderOf<repo.ApplicationOrderColumn>(query.ordering, 'name'), page.pageSize, page.offset);
    return { results: rows.map(toApplication), count, page };
  }

  async function get(id: number) {
    const row = await repo.findApplicationById(db, id);
    if (!row) throw new AppError('NOT_FOUND');
    return toApplication(row);
  }

  /** POST applications/: the secret is in this answer and nowhere else. */
  async function register(actor: Actor, input: CreateApplicationInput) {
    checkLists(input);
    const name = displayName(input.name);
    const { application, credentials } = await db.transaction().execute(async (trx) => {
      const created = await insert(trx, { ...input, name, description: input.description?.trim() ?? '', created_by: actor.id });
      await audit.record({ event_type: 'application_created', ...auditOrigin(actor),
        details: { target_application_id: created.application.id, name } }, trx);
      return created;
    });
    await invalidate();
    return toCredentialsAnswer('Application created', SECRET_WARNING, application, credentials);
  }

  /** PUT and PATCH applications/<id>/: fields left out keep their value. */
  async function update(actor: Actor, id: number, input: UpdateApplicationInput) {
    checkLists(input);
    if (input.is_active === false) refuseSelf(actor, id, 'deactivate');
    const changes: RowUpdate<'applications'> = {};
    if (input.name !== undefined) changes.name = displayName(input.name);
    if (input.description !== undefined) changes.description = input.description.trim();
    if (input.redirect_uris !== undefined) changes.redirect_uris = JSON.stringify(input.redirect_uris);
    if (input.allowed_origins !== undefined) changes.allowed_origins = JSON.stringify(input.allowed_origins);
    if (input.is_active !== undefined) changes.is_active = input.is_active;
    const fields = Object.keys(changes);
    const row = await db.transaction().execute(async (trx) => {
      const updated = await repo.updateApplication(trx, id, { ...changes, updated_at: clock.now() });
      if (!updated) throw new AppError('NOT_FOUND');
      const sensitive = fields.some((f) => f === 'redirect_uris' || f === 'allowed_origins' || f === 'is_active');
      await audit.record({ event_type: 'application_updated', severity: sensitive ? 'warning' : 'info', ...auditOrigin(actor),
        details: { target_application_id: id, fields } }, trx);
      return updated;
    });
    await invalidate();
    return toApplication(row);
  }

  /** Deleting ends the application: its credentials fail at once, and tokens it obtained stop matching any caller. */
  async function remove(actor: Actor, id: number) {
    refuseSelf(actor, id, 'delete');
    await db.transaction().execute(async (trx) => {
      const row = await repo.findApplicationById(trx, id);
      if (!row || (await repo.deleteApplication(trx, id)) === 0) throw new AppError('NOT_FOUND');
      await audit.record({ event_type: 'application_deleted', severity: 'warning', ...auditOrigin(actor),
        details: { target_application_id: id, name: row.name } }, trx);
    });
    await invalidate();
    return { message: 'Application deleted' };
  }

  /**
   * POST applications/<id>/regenerate/: a new key and secret replace the old pair in one statement, and this
   * instance's authentication cache is dropped so the old pair fails from the next request on.
   */
  async function regenerate(actor: Actor, id: number, confirmation: string | undefined) {
    if (confirmation !== REGENERATE_PHRASE) {
      throw new AppError('CONFIRMATION_REQUIRED', { message: `Send {"confirmation": "${REGENERATE_PHRASE}"} to replace the credentials` });
    }
    const { secret_hash, ...credentials } = newCredentials();
    const row = await db.transaction().execute(async (trx) => {
      const updated = await repo.updateApplication(trx, id, { access_key: credentials.access_key, secret_hash, updated_at: clock.now() });
      if (!updated) throw new AppError('NOT_FOUND');
      await audit.record({ event_type: 'application_credentials_regenerated', severity: 'warning', ...auditOrigin(actor),
        details: { target_application_id: id } }, trx);
      return updated;
    });
    await invalidate();
    return toCredentialsAnswer('Credentials regenerated', SECRET_WARNING, row, credentials);
  }

  return {
    create, authenticate, authenticateCached, byAccessKey, byId, isAllowedOrigin, ensureDefault, invalidate, count: () => repo.countApplications(db),
    list, get, register, update, remove, regenerate,
  };
}

export type ApplicationService = ReturnType<typeof createApplicationService>;
