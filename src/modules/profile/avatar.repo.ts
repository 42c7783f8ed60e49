import type { Executor, NewRow } from '../../db/database.js';

/**
 * The account's avatar becomes this one. One row per account (`user_id` is unique), so the old image goes in the
 * same statement, and two uploads racing leave one avatar, never an orphan.
 */
export const saveAvatar = (db: Executor, v: NewRow<'avatars'> & { created_at: Date }) => {
  const { name, content_type, bytes, created_at } = v;
  return db.insertInto('avatars').values(v)
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ name, content_type, bytes, created_at })).execute();
};

export const findAvatar = (db: Executor, name: string) =>
  db.selectFrom('avatars').select(['content_type', 'bytes']).where('name', '=', name).executeTakeFirst();
