import type { ApplicationKind, Executor, NewRow, Row, RowUpdate } from '../../db/database.js';
import { containsPattern, type Order } from '../../core/listing.js';

export type ApplicationRow = Omit<Row<'applications'>, 'secret_hash'>;

const PUBLIC_COLUMNS = ['id', 'name', 'description', 'kind', 'access_key', 'is_active', 'redirect_uris', 'post_logout_redirect_uris', 'allowed_origins',
  'created_by', 'builtin', 'created_at', 'updated_at'] as const;

export const insertApplication = (db: Executor, values: NewRow<'applications'>) =>
  db.insertInto('applications').values(values).returning(PUBLIC_COLUMNS).executeTakeFirstOrThrow();

/** The one query that reads the secret hash: application authentication. */
export const findApplicationForAuth = (db: Executor, accessKey: string) =>
  db.selectFrom('applications').select([...PUBLIC_COLUMNS, 'secret_hash'])
    .where('access_key', '=', accessKey).executeTakeFirst();

export const findApplicationById = (db: Executor, id: number) =>
  db.selectFrom('applications').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst();

/** The applications whose access key or name is `ref` (a few are enough to tell one from several). */
export const findApplicationsByKeyOrName = (db: Executor, ref: string) =>
  db.selectFrom('applications').select(PUBLIC_COLUMNS).where((eb) => eb.or([eb('access_key', '=', ref), eb('name', '=', ref)]))
    .orderBy('id').limit(3).execute();

export const findApplicationByName = (db: Executor, name: string) =>
  db.selectFrom('applications').select(PUBLIC_COLUMNS).where('name', '=', name).orderBy('id').executeTakeFirst();

export const countApplications = async (db: Executor): Promise<number> =>
  Number((await db.selectFrom('applications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

/** Applications an operator created: those `gatehouse seed` manages (the console's) left out. */
export const countOperatorApplications = async (db: Executor): Promise<number> =>
  Number((await db.selectFrom('applications').select((eb) => eb.fn.countAll<number>().as('n')).where('builtin', 'is', null)
    .executeTakeFirstOrThrow()).n);

/** Every allowed origin of every active application (CORS preflights carry no credentials). */
export const listActiveOrigins = (db: Executor) =>
  db.selectFrom('applications').select('allowed_origins').where('is_active', '=', true).execute();

export type ApplicationOrderColumn = 'name' | 'created_at' | 'updated_at';

export interface ApplicationFilter {
  search?: string;
  isActive?: boolean;
  kind?: ApplicationKind;
}

function filtered(db: Executor, f: ApplicationFilter) {
  let q = db.selectFrom('applications');
  if (f.search) {
    const pattern = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('description', 'ilike', pattern)]));
  }
  if (f.isActive !== undefined) q = q.where('is_active', '=', f.isActive);
  if (f.kind !== undefined) q = q.where('kind', '=', f.kind);
  return q;
}

export async function listApplications(db: Executor, f: ApplicationFilter, order: Order<ApplicationOrderColumn>, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    filtered(db, f).select(PUBLIC_COLUMNS).orderBy(order.column, order.direction).orderBy('id', order.direction)
      .limit(limit).offset(offset).execute(),
    filtered(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export const updateApplication = (db: Executor, id: number, values: RowUpdate<'applications'>) =>
  db.updateTable('applications').set(values).where('id', '=', id).returning(PUBLIC_COLUMNS).executeTakeFirst();

export const deleteApplication = (db: Executor, id: number) =>
  db.deleteFrom('applications').where('id', '=', id).executeTakeFirst().then((r) => Number(r.numDeletedRows));
