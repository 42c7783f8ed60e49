import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import { AppError, type FieldErrors } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { ChangeBus } from '../../db/change-bus.js';
import type { ApplicationKind, Db, Executor, RowUpdate } from '../../db/database.js';
import { randomHex, sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import { auditOrigin, COMMAND_LINE_ORIGIN, type Actor } from '../rbac/actor.js';
import { displayName } from '../../core/fields.js';
import { orderOf } from '../../core/listing.js';
import { toContext, type AppContext } from './app-credentials.service.js';
import * as repo from './applications.repo.js';
import {
  toApplication, toCredentialsAnswer, type ApplicationListInput, type CreateApplicationInput, type UpdateApplicationInput,
} from './applications.schemas.js';
import { originsProblem } from './kinds.js';
import { listProblems, originProblem, redirectUriProblem } from './redirect-rules.js';

export type { AppContext } from './app-credentials.service.js';

export interface NewApplicationInput {
  name: string;
  description?: string;
  kind?: ApplicationKind;
  redirect_uris?: string[];
  post_logout_redirect_uris?: string[];
  allowed_origins?: string[];
  is_active?: boolean;
  created_by?: number | null;
}

/** A confidential application's key and secret. */
export interface Credentials {
  access_key: string;
  access_secret: string;
}

/** What create and regenerate hand out: a public application's `access_secret` is null (it has none). */
export interface IssuedCredentials {
  access_key: string;
  access_secret: string | null;
}

type Deps = { db: Db; clock: Clock; audit: AuditService; changes: Pick<ChangeBus, 'publish'> };

export const REGENERATE_PHRASE = 'REGENERATE';
const SECRET_WARNING = 'Save the access_secret now: it is never shown again.';
const PUBLIC_WARNING = 'A public application has no secret: its access_key may be published in browser code, and requests '
  + 'are accepted only from its allowed_origins.';

export function newCredentials(): Credentials & { secret_hash: string } {
  const access_secret = randomBytes(32).toString('base64url');
  return { access_key: randomHex(32), access_secret, secret_hash: sha256Hex(access_secret) };
}

/** A key for `kind`, with a secret (and its hash) only for a confidential application. */
const credentialsFor = (kind: ApplicationKind): IssuedCredentials & { secret_hash: string | null } =>
  (kind === 'public' ? { access_key: randomHex(32), access_secret: null, secret_hash: null } : newCredentials());

export function createApplicationService({ db, clock, audit, changes }: Deps) {
  async function insert(trx: Executor, input: NewApplicationInput) {
    const kind = input.kind ?? 'confidential';
    const { secret_hash, ...credentials } = credentialsFor(kind);
    const now = clock.now();
    const application = await repo.insertApplication(trx, {
      name: input.name,
      description: input.description ?? '',
      kind,
      access_key: credentials.access_key,
      secret_hash,
      is_active: input.is_active ?? true,
      redirect_uris: JSON.stringify(input.redirect_uris ?? []),
      post_logout_redirect_uris: JSON.stringify(input.post_logout_redirect_uris ?? []),
      allowed_origins: JSON.stringify(input.allowed_origins ?? []),
      created_by: input.created_by ?? null,
      created_at: now,
      updated_at: now,
    });
    return { application, credentials };
  }

  /** Creates an application (CLI, quickstart, tests); the answer holds its credentials, the secret once. */
  async function create(input: NewApplicationInput & { kind?: 'confidential' }): Promise<{ application: repo.ApplicationRow; credentials: Credentials }>;
  async function create(input: NewApplicationInput): Promise<{ application: repo.ApplicationRow; credentials: IssuedCredentials }>;
  async function create(input: NewApplicationInput) {
    const created = await insert(db, input);
    await invalidate();
    return created;
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

  /**
   * Creates "Default App" when no application exists but those `gatehouse seed` manages (the console's); returns its
   * credentials only when it was created.
   */
  async function ensureDefault(name = 'Default App') {
    if ((await repo.countOperatorApplications(db)) > 0) return null;
    return create({ name, description: 'Created on first start' });
  }

  /**
   * Every instance drops its cached credentials and origins (app-credentials.service.ts), this one at once
   * (docs/decisions.md "Several instances").
   */
  const invalidate = async (): Promise<void> => { await changes.publish('applications'); };

  /**
   * 400 naming each redirect URI or origin that could not be matched safely, and a public application left without an
   * origin. `kind` is the application's (fixed at creation); `allowed_origins` undefined keeps the current list.
   */
  function checkLists(input: { redirect_uris?: string[]; post_logout_redirect_uris?: string[]; allowed_origins?: string[] },
    kind: ApplicationKind) {
    const errors: FieldErrors = {};
    const uris = listProblems(input.redirect_uris ?? [], redirectUriProblem);
    const logoutUris = listProblems(input.post_logout_redirect_uris ?? [], redirectUriProblem);
    const origins = listProblems(input.allowed_origins ?? [], originProblem);
    const missing = input.allowed_origins === undefined ? null : originsProblem(kind, input.allowed_origins);
    if (missing) origins.push(missing);
    if (uris.length) errors.redirect_uris = uris;
    if (logoutUris.length) errors.post_logout_redirect_uris = logoutUris;
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
    const { rows, count } = await repo.listApplications(db, { search: query.search, isActive: query.is_active, kind: query.kind },
      orderOf<repo.ApplicationOrderColumn>(query.ordering, 'name'), page.pageSize, page.offset);
    return { results: rows.map(toApplication), count, page };
  }

  /**
   * The application an operator names on the command line: by its access key, or by its name when no other application
   * bears it (names are not unique).
   */
  async function findByKeyOrName(ref: string) {
    const rows = await repo.findApplicationsByKeyOrName(db, ref);
    const byKey = rows.find((r) => r.access_key === ref);
    if (byKey) return toApplication(byKey);
    if (rows.length === 0) throw new AppError('NOT_FOUND', { message: `No application has the access key or the name "${ref}"` });
    if (rows.length > 1) {
      throw AppError.validation({ non_field_errors: [`Several applications are named "${ref}": name the one meant by its access key.`] });
    }
    return toApplication(rows[0]!);
  }

  async function get(id: number) {
    const row = await repo.findApplicationById(db, id);
    if (!row) throw new AppError('NOT_FOUND');
    return toApplication(row);
  }

  const warningFor = (kind: ApplicationKind) => (kind === 'public' ? PUBLIC_WARNING : SECRET_WARNING);

  /** POST applications/: the secret is in this answer and nowhere else (a public application has none). */
  async function register(actor: Actor, input: CreateApplicationInput) {
    const kind = input.kind ?? 'confidential';
    checkLists({ ...input, allowed_origins: input.allowed_origins ?? [] }, kind);
    const name = displayName(input.name);
    const { application, credentials } = await db.transaction().execute(async (trx) => {
      const created = await insert(trx, { ...input, kind, name, description: input.description?.trim() ?? '', created_by: actor.id });
      await audit.record({ event_type: 'application_created', ...auditOrigin(actor),
        details: { target_application_id: created.application.id, name, kind } }, trx);
      return created;
    });
    await invalidate();
    return toCredentialsAnswer('Application created', warningFor(kind), application, credentials);
  }

  /** PUT and PATCH applications/<id>/: fields left out keep their value; the kind never changes. */
  async function update(actor: Actor, id: number, input: UpdateApplicationInput) {
    const current = await repo.findApplicationById(db, id);
    if (!current) throw new AppError('NOT_FOUND');
    if (input.kind !== undefined && input.kind !== current.kind) {
      throw AppError.validation({ kind: ['The kind of an application cannot change: create a new application of the other kind.'] });
    }
    checkLists(input, current.kind);
    if (input.is_active === false) refuseSelf(actor, id, 'deactivate');
    const changes: RowUpdate<'applications'> = {};
    if (input.name !== undefined) changes.name = displayName(input.name);
    if (input.description !== undefined) changes.description = input.description.trim();
    if (input.redirect_uris !== undefined) changes.redirect_uris = JSON.stringify(input.redirect_uris);
    if (input.post_logout_redirect_uris !== undefined) changes.post_logout_redirect_uris = JSON.stringify(input.post_logout_redirect_uris);
    if (input.allowed_origins !== undefined) changes.allowed_origins = JSON.stringify(input.allowed_origins);
    if (input.is_active !== undefined) changes.is_active = input.is_active;
    const fields = Object.keys(changes);
    const row = await db.transaction().execute(async (trx) => {
      const updated = await repo.updateApplication(trx, id, { ...changes, updated_at: clock.now() });
      if (!updated) throw new AppError('NOT_FOUND');
      const sensitive = fields.some((f) => ['redirect_uris', 'post_logout_redirect_uris', 'allowed_origins', 'is_active'].includes(f));
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
   * POST applications/<id>/regenerate/: a new key and secret (a public application: a new key) replace the old ones in
   * one statement, and every instance's authentication cache is dropped so the old key fails from the next request on.
   * `actor` null: `gatehouse app regenerate`, by an operator on the server (the audit event has no actor).
   */
  async function regenerate(actor: Actor | null, id: number, confirmation: string | undefined) {
    if (confirmation !== REGENERATE_PHRASE) {
      throw new AppError('CONFIRMATION_REQUIRED', { message: `Send {"confirmation": "${REGENERATE_PHRASE}"} to replace the credentials` });
    }
    const row = await db.transaction().execute(async (trx) => {
      const current = await repo.findApplicationById(trx, id);
      if (!current) throw new AppError('NOT_FOUND');
      // The kind never changes (and a check constraint ties the secret to it): a public application gets a new key only.
      const { secret_hash, ...credentials } = credentialsFor(current.kind);
      const updated = await repo.updateApplication(trx, id, { access_key: credentials.access_key, secret_hash, updated_at: clock.now() });
      if (!updated) throw new AppError('NOT_FOUND');
      await audit.record({ event_type: 'application_credentials_regenerated', severity: 'warning',
        ...(actor ? auditOrigin(actor) : COMMAND_LINE_ORIGIN), details: { target_application_id: id } }, trx);
      return { updated, credentials };
    });
    await invalidate();
    return toCredentialsAnswer('Credentials regenerated', warningFor(row.updated.kind), row.updated, row.credentials);
  }

  return {
    create, byAccessKey, byId, ensureDefault, invalidate, count: () => repo.countApplications(db),
    list, findByKeyOrName, get, register, update, remove, regenerate,
  };
}

export type ApplicationService = ReturnType<typeof createApplicationService>;
