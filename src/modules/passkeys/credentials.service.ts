import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import type { RequestMeta } from '../../core/request-meta.js';
import { removeSignInMethod } from '../users/lookup.js';
import * as repo from './passkeys.repo.js';
import { toListedPasskey } from './passkeys.schemas.js';

type Deps = { db: Db; audit: AuditService };

/** `webauthn/credentials/` (docs/passkeys.md "Managing passkeys"): the caller's passkeys, and their removal. */
export function createPasskeyCredentialService({ db, audit }: Deps) {
  async function list(userId: number) {
    const rows = await repo.listCredentials(db, userId);
    return { credentials: rows.map(toListedPasskey), count: rows.length };
  }

  /** 404 NOT_FOUND for another account's passkey; 400 LAST_LOGIN_METHOD for the last way into a passwordless account. */
  async function remove(userId: number, id: number, meta: RequestMeta): Promise<void> {
    const outcome = await db.transaction().execute(async (trx) => {
      const result = await removeSignInMethod(trx, 'passkey', userId, id);
      if (result === 'removed') {
        await audit.record({ event_type: 'passkey_deleted', severity: 'warning', user_id: userId, application_id: meta.applicationId,
          ip_address: meta.ip, user_agent: meta.userAgent, details: { credential_id: id } }, trx);
      }
      return result;
    });
    if (outcome === 'missing') throw new AppError('NOT_FOUND');
    if (outcome === 'last') throw new AppError('LAST_LOGIN_METHOD');
  }

  return { list, remove };
}

export type PasskeyCredentialService = ReturnType<typeof createPasskeyCredentialService>;
