import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.js';

/** Every migration, in order. Migrations are frozen once released: add a new one, never edit an old one. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
};
