import type { Executor, NewRow, Row } from '../../db/database.js';

export type ApplicationRow = Omit<Row<'applications'>, 'secret_hash'>;

const PUBLIC_COLUMNS = ['id', 'name', 'description', 'access_key', 'is_active', 'redirect_uris', 'allowed_origins',
  'created_by', 'created_at', 'updated_at'] as const;

export const insertApplication = (db: Executor, values: NewRow<'applications'>) =>
  db.insertInto('applications').values(values).returning(PUBLIC_COLUMNS).executeTakeFirstOrThrow();

/** The one query that reads the secret hash: application authentication. */
export const findApplicationForAuth = (db: Executor, accessKey: string) =>
  db.selectFrom('applications').select([...PUBLIC_COLUMNS, 'secret_hash'])
    .where('access_key', '=', accessKey).executeTakeFirst();

export const findApplicationById = (db: Executor, id: number) =>
  db.selectFrom('applications').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst();

export const findApplicationByName = (db: Executor, name: string) =>
  db.selectFrom('applications').select(PUBLIC_COLUMNS).where('name', '=', name).orderBy('id').executeTakeFirst();

export const countApplications = async (db: Executor): Promise<number> =>
  Number((await db.selectFrom('applications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

/** Every allowed origin of every active application (CORS preflights carry no credentials). */
export const listActiveOrigins = (db: Executor) =>
  db.selectFrom('applications').select('allowed_origins').where('is_active', '=', true).execute();
