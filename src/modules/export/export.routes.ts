import { userAuthOf } from '../../http/guards/index.js';
import { actorMetaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { ExportBody, ExportResponse } from './export.schemas.js';

const DESCRIPTION = 'Everything stored about the caller\'s account, as JSON, for the current password. Closed to agents; '
  + 'a `deletion_pending` token may call it. A wrong password answers 400 with details.password and counts toward the '
  + 'lockout. Limited to 3 exports an hour.';

/** POST export-user-data/ (docs/privacy.md "Personal-data export"). */
export default async function exportRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { dataExport } = container.services;

  app.post('/export-user-data/', {
    schema: { tags: ['account'], description: DESCRIPTION, body: ExportBody, response: { 200: ExportResponse } },
    // Authenticated first: only signed-in callers use up the limit (3 an hour, docs/privacy.md "Personal-data export").
    onRequest: [guards.user({ scopes: ['full', 'deletion_pending'] }), guards.rateLimit('export', [{ max: 3, per: 'hour' }])],
  }, async (req) => dataExport.exportData(userAuthOf(req).user.id, req.body.password, actorMetaOf(req)));
}
