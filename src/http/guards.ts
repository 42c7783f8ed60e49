import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/settings.js';
import { AppError } from '../core/errors.js';
import type { PermissionSet, PermissionSource } from '../modules/rbac/permission-set.js';
import type { BearerService } from '../modules/sessions/bearer.service.js';
import type { TokenScope } from '../security/jwt.js';
import type { RateLimiter } from './rate-limit.js';

/** Boolean settings that switch a feature on. */
export type FeatureSwitch = 'OTP_LOGIN_ENABLED' | 'MAGIC_LINK_ENABLED' | 'WEBAUTHN_ENABLED' | 'ORGANIZATIONS_ENABLED'
  | 'REFRESH_TOKEN_COOKIE_ENABLED' | 'DOCS_ENABLED';

export interface UserGuardOptions {
  /** Token scopes this route accepts (SPEC.md "Token scope"); default `full` only. */
  scopes?: TokenScope[];
  /** Authenticate when a bearer token is present and valid, carry on without one otherwise (logout/). */
  optional?: boolean;
}

// The scheme name is case-insensitive (RFC 9110 §11.1); the token is RFC 6750's b64token.
const BEARER_RE = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)$/i;

/**
 * Guards are declared on each route next to its path. Routes are always registered; a feature that is
 * off answers 404 FEATURE_DISABLED.
 */
export function createGuards(config: Config, rateLimiter: RateLimiter, bearer: BearerService, permissions: PermissionSource) {
  return {
    /** `permission('roles.manage')`, declared after `user()`: 403 PERMISSION_DENIED unless held. */
    permission: createPermissionGuard(permissions),
    feature: (name: FeatureSwitch) => async (_req: FastifyRequest) => {
      if (!config[name]) throw new AppError('FEATURE_DISABLED');
    },
    rateLimit: rateLimiter,
    /** Bearer authentication (401 UNAUTHORIZED/TOKEN_*) then the scope check (403 INSUFFICIENT_SCOPE). */
    user: ({ scopes = ['full'], optional = false }: UserGuardOptions = {}) => async (req: FastifyRequest) => {
      const header = req.headers.authorization;
      if (!header || !config.JWT_AUTH_ENABLED) {
        if (optional) return;
        throw new AppError('UNAUTHORIZED');
      }
      const token = BEARER_RE.exec(header)?.[1];
      try {
        if (!token) throw new AppError('TOKEN_INVALID');
        req.auth = await bearer.authenticate(token, req.application?.id ?? null);
      } catch (err) {
        if (optional) return;
        throw err;
      }
      if (!scopes.includes(req.auth.claims.scope)) throw new AppError('INSUFFICIENT_SCOPE');
    },
  };
}

export type Guards = ReturnType<typeof createGuards>;

/** The authenticated context of a route whose user guard is not optional. */
export function authOf(req: FastifyRequest) {
  if (!req.auth) throw new AppError('UNAUTHORIZED');
  return req.auth;
}

const heldByRequest = new WeakMap<FastifyRequest, Promise<PermissionSet>>();

/**
 * `permission(code)`, declared after `user()`: 403 PERMISSION_DENIED unless the user holds `code` through a role,
 * directly, or below a held parent (a superuser holds every permission). One query per request at most.
 */
export function createPermissionGuard(source: PermissionSource) {
  return (code: string) => async (req: FastifyRequest) => {
    if (!(await heldPermissions(req, source)).has(code)) throw new AppError('PERMISSION_DENIED');
  };
}

/** The effective permissions of the request's authenticated user, resolved once and kept for the request. */
export function heldPermissions(req: FastifyRequest, source: PermissionSource): Promise<PermissionSet> {
  let held = heldByRequest.get(req);
  if (!held) {
    held = source.permissionsOf(authOf(req).user);
    heldByRequest.set(req, held);
  }
  return held;
}
