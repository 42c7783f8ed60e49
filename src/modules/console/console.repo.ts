import type { Executor } from '../../db/database.js';
import { CONSOLE_APPLICATION } from '../../db/seed/data.js';

/** The access key of the console's public application (seeded while SVC_CONSOLE_ENABLED is on), if it is active. */
export async function findConsoleAccessKey(db: Executor): Promise<string | null> {
  const row = await db.selectFrom('applications').select('access_key')
    .where('builtin', '=', CONSOLE_APPLICATION.builtin).where('kind', '=', 'public').where('is_active', '=', true)
    .executeTakeFirst();
  return row?.access_key ?? null;
}
