import type { Env } from '../../config/load.js';
import { migrateToLatest } from '../../db/migrator.js';
import { JOBS } from '../../jobs/registry.js';
import { print, UsageError } from '../output.js';
import { withRuntime } from './database.js';

export async function jobsRunCommand(env: Env, name: string | undefined): Promise<void> {
  const known = Object.keys(JOBS).sort();
  if (!name) throw new UsageError(`jobs run: name a job (${known.join(', ') || 'none registered'})`);
  const job = JOBS[name];
  if (!job) throw new UsageError(`jobs run: unknown job "${name}" (known: ${known.join(', ') || 'none registered'})`);
  await withRuntime(env, async ({ database, container }) => {
    await migrateToLatest(database.db);
    const started = Date.now();
    print(`Running ${name}…`);
    const result = await job.run(container, (line) => print(`  ${line}`));
    print(`${name}: ${result.summary} (${Date.now() - started} ms)`);
  });
}
