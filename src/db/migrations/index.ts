import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.js';
import * as m0002 from './0002_sessions.js';
import * as m0003 from './0003_notifications.js';
import * as m0004 from './0004_codes.js';

/** Every migration, in order. Migrations are frozen once released: add a new one, never edit an old one. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_sessions': m0002,
  '0003_notifications': m0003,
  '0004_codes': m0004,
};
