import { ConfigError } from '../config/load.js';
import { AppError } from '../core/errors.js';
import { currentIo } from './context.js';
import { DatabaseUnavailableError } from '../db/create-db.js';
import { DataDirLockedError } from '../db/lock-file.js';
import { MigrationError } from '../db/migrator.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** A line on the command's standard output. */
export const print = (line = '') => currentIo().out(`${line}\n`);
export const printJson = (value: unknown) => currentIo().out(`${JSON.stringify(value)}\n`);
/** A line on the command's standard error. */
export const printError = (line: string) => currentIo().err(`${line}\n`);

/** One clear line for any failure; a stack trace only for what we did not expect. */
export function describeFailure(err: unknown): string {
  if (err instanceof AppError) {
    const details = err.opts.details as Record<string, string[]> | undefined;
    if (err.code === 'VALIDATION_ERROR' && details) {
      return Object.entries(details).map(([field, msgs]) => `${field === 'non_field_errors' ? '' : `${field}: `}${msgs.join(' ').replace(/\.$/, '')}`).join('; ');
    }
    return `${err.code}: ${err.message}`;
  }
  if (err instanceof UsageError || err instanceof ConfigError || err instanceof DatabaseUnavailableError
    || err instanceof DataDirLockedError || err instanceof MigrationError) {
    return err.message;
  }
  return `unexpected error: ${(err as Error)?.stack ?? String(err)}`;
}
