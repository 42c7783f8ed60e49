import type { Redis } from 'ioredis';
import type { Config } from './config/settings.js';
import { systemClock, type Clock } from './core/clock.js';
import type { Database } from './db/create-db.js';
import { createApplicationService } from './modules/applications/applications.service.js';
import { createAuditService } from './modules/audit/audit.service.js';
import { createUserService } from './modules/users/users.service.js';
import { createArgon2Hasher, PRODUCTION_ARGON2, type PasswordHasher } from './security/password-hash.js';

export interface ContainerOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  hasher?: PasswordHasher;
  redis?: Redis | null;
}

/** The composition root: the one place that wires repos → services. */
export async function buildContainer(opts: ContainerOptions) {
  const { config, database } = opts;
  const db = database.db;
  const clock = opts.clock ?? systemClock;
  const hasher = opts.hasher ?? await createArgon2Hasher(PRODUCTION_ARGON2, config.PASSWORD_HASH_CONCURRENCY);
  const redis = opts.redis ?? null;

  const applications = createApplicationService({ db, clock });
  const audit = createAuditService({ db, config });
  const users = createUserService({ db, hasher, config });

  return {
    config,
    database,
    db,
    clock,
    hasher,
    redis,
    services: { applications, audit, users },
  };
}

export type Container = Awaited<ReturnType<typeof buildContainer>>;
