import type { Executor } from '../../db/database.js';
import { CONSOLE_APPLICATION } from '../../db/seed/data.js';

/** The console's public application (seeded while SVC_CONSOLE_ENABLED is on), if it is active: its key and origins. */
export async function findConsoleApplication(db: Executor): Promise<{ access_key: string; allowed_origins: string[] } | null> {
  const row = await db.selectFrom('applications').select(['access_key', 'allowed_origins'])
    .where('builtin', '=', CONSOLE_APPLICATION.builtin).where('kind', '=', 'public').where('is_active', '=', true)
    .executeTakeFirst();
  return row ?? null;
}
