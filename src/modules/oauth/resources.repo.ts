import type { Executor, NewRow, RowUpdate } from '../../db/database.js';

const COLUMNS = ['id', 'uri', 'name', 'scopes', 'client_id', 'created_at', 'updated_at'] as const;

export const insertResource = (db: Executor, values: NewRow<'oauth_resources'>) =>
  db.insertInto('oauth_resources').values(values).returning(COLUMNS).executeTakeFirstOrThrow();

export const listResources = (db: Executor) => db.selectFrom('oauth_resources').select(COLUMNS).orderBy('uri').execute();

export const findResource = (db: Executor, id: number) =>
  db.selectFrom('oauth_resources').select(COLUMNS).where('id', '=', id).executeTakeFirst();

export const findResourceByUri = (db: Executor, uri: string) =>
  db.selectFrom('oauth_resources').select(COLUMNS).where('uri', '=', uri).executeTakeFirst();

/** The one read of a resource's secret hash: its authentication. */
export const findResourceForAuth = (db: Executor, clientId: string) =>
  db.selectFrom('oauth_resources').select([...COLUMNS, 'secret_hash']).where('client_id', '=', clientId).executeTakeFirst();

export const updateResource = (db: Executor, id: number, changes: RowUpdate<'oauth_resources'>) =>
  db.updateTable('oauth_resources').set(changes).where('id', '=', id).returning(COLUMNS).executeTakeFirst();

export const deleteResource = (db: Executor, id: number) =>
  db.deleteFrom('oauth_resources').where('id', '=', id).returning(['id', 'uri']).executeTakeFirst();

export type ResourceRow = NonNullable<Awaited<ReturnType<typeof findResource>>>;
