import { sql } from 'kysely';
import type { Executor, RowUpdate } from '../../db/database.js';

export const updateUserProfile = (db: Executor, id: number, values: RowUpdate<'users'>) =>
  db.updateTable('users').set(values).where('id', '=', id).execute();

export const usernameTaken = async (db: Executor, username: string, exceptId: number) =>
  Boolean(await db.selectFrom('users').select('id').where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .where('id', '!=', exceptId).executeTakeFirst());

export const phoneTaken = async (db: Executor, phone: string, exceptId: number) =>
  Boolean(await db.selectFrom('users').select('id').where('phone', '=', phone).where('id', '!=', exceptId).executeTakeFirst());
