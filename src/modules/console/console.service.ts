import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { findConsoleApplication } from './console.repo.js';

type Deps = { db: Db };

/** What the console's `config.json` is built from: its public application, as seeding created it. */
export function createConsoleService({ db }: Deps) {
  /**
   * The console's application: its key and the origins it is accepted from. Seeding creates it; an operator may have
   * deactivated it, and then the console answers as a feature that is off, saying how to bring it back (docs/console.md).
   */
  async function application(): Promise<{ access_key: string; allowed_origins: string[] }> {
    const found = await findConsoleApplication(db);
    if (!found) {
      throw new AppError('FEATURE_DISABLED', { message: 'The console\'s application is missing or deactivated: run `gatehouse seed`, '
        + 'or reactivate the application "Gatehouse Console"', details: { setting: null, reason: 'console_application_inactive' } });
    }
    return found;
  }

  return { application };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;
