import type { TestApp } from './test-app.js';

/** Audit events of a type, oldest first. */
export const auditEvents = (t: TestApp, eventType: string) =>
  t.container.db.selectFrom('audit_events').select(['event_type', 'severity', 'user_id', 'actor_id', 'details'])
    .where('event_type', '=', eventType).orderBy('id').execute();
