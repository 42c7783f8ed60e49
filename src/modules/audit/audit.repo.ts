import type { Executor, NewRow } from '../../db/database.js';

export const insertAuditEvent = (db: Executor, values: NewRow<'audit_events'>) =>
  db.insertInto('audit_events').values(values).returning(['id']).executeTakeFirstOrThrow();
