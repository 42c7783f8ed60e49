import { PageOf, toPage } from '../../core/pagination.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { accessControl } from '../rbac/access.js';
import { EmptyBody } from './admin-users.schemas.js';
import { acceptEmptyBodyOfAnyType, countBodyBytes, hasBody } from '../../http/body-bytes.js';
import { IdParams, pathId } from '../../core/fields.js';
import { AuditLog, AuditLogQuery } from './audit-logs.schemas.js';
import {
  BlacklistedToken, BlacklistQuery, CleanupResponse, LoginAttempt, LoginAttemptQuery, RefreshTokenQuery,
  RefreshTokenRecord, RevokeBody, RevokeResponse,
} from './security.schemas.js';

const tags = ['admin: security'];

/**
 * docs/access-control.md "Administration": token listings (audit.view), their clean-up and revocation (security.view),
 * audit logs.
 */
export default async function securityRoutes(app: TypedApp, deps: RouteDeps) {
  const { security, auditLogs } = deps.container.services;
  const { requires, actorOf } = accessControl(deps);
  const audit = requires('audit.view');
  const operate = requires('security.view');

  app.get('/admin/blacklisted-tokens/', {
    schema: { tags, querystring: BlacklistQuery, response: { 200: PageOf(BlacklistedToken) } }, onRequest: audit,
  }, async (req) => {
    const { results, count, page } = await security.blacklisted(req.query);
    return toPage(results, count, page, req.url);
  });

  app.post('/admin/blacklisted-tokens/cleanup/', { schema: { tags, body: EmptyBody, response: { 200: CleanupResponse } }, onRequest: operate },
    async (req) => security.cleanupBlacklist(await actorOf(req)));

  app.get('/admin/refresh-tokens/', {
    schema: { tags, querystring: RefreshTokenQuery, response: { 200: PageOf(RefreshTokenRecord) } }, onRequest: audit,
  }, async (req) => {
    const { results, count, page } = await security.refreshTokens(req.query);
    return toPage(results, count, page, req.url);
  });

  // The Tenxyte SDK posts no body here, so the phrase may be missing when no byte was sent (docs/access-control.md
  // "Administration"): revoking only takes access away.
  await app.register(async (scope: TypedApp) => {
    acceptEmptyBodyOfAnyType(scope);
    scope.post('/admin/refresh-tokens/:id/revoke/', {
      schema: { tags, params: IdParams, body: RevokeBody, response: { 200: RevokeResponse } },
      onRequest: operate, preParsing: countBodyBytes,
    }, async (req) => security.revokeRefreshToken(await actorOf(req), pathId(req.params), req.body.confirmation,
      { bodySent: hasBody(req) }));
  });

  app.get('/admin/login-attempts/', {
    schema: { tags, querystring: LoginAttemptQuery, response: { 200: PageOf(LoginAttempt) } }, onRequest: audit,
  }, async (req) => {
    const { results, count, page } = await security.loginAttempts(req.query);
    return toPage(results, count, page, req.url);
  });

  app.get('/admin/audit-logs/', {
    schema: { tags, querystring: AuditLogQuery, response: { 200: PageOf(AuditLog) } }, onRequest: audit,
  }, async (req) => {
    const { results, count, page } = await auditLogs.list(req.query);
    return toPage(results, count, page, req.url);
  });

  app.get('/admin/audit-logs/:id/', { schema: { tags, params: IdParams, response: { 200: AuditLog } }, onRequest: audit },
    async (req) => auditLogs.get(pathId(req.params)));
}
