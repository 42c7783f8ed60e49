import { AppError } from '../../core/errors.js';
import { pageRequest, type PageQueryInput } from '../../core/pagination.js';
import type { Db } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import type { RequestMeta } from '../../core/request-meta.js';
import { removeSignInMethod } from '../users/lookup.js';
import * as repo from './social-accounts.repo.js';
import { toSocialIdentity } from './social-accounts.schemas.js';

type Deps = { db: Db; audit: AuditService };

/** docs/social-login.md "The linked identities": `me/social-accounts/` lists and unlinks the account's identities. */
export function createSocialAccountService({ db, audit }: Deps) {
  async function list(userId: number, query: PageQueryInput) {
    const page = pageRequest(query);
    const { rows, count } = await repo.listIdentities(db, userId, page.pageSize, page.offset);
    return { results: rows.map(toSocialIdentity), count, page };
  }

  /** 404 for an identity of another account; 400 LAST_LOGIN_METHOD when it is the account's only way to sign in. */
  async function unlink(userId: number, id: number, meta: RequestMeta): Promise<void> {
    const outcome = await db.transaction().execute(async (trx) => {
      const result = await removeSignInMethod(trx, 'social', userId, id);
      if (result === 'removed') {
        await audit.record({ event_type: 'social_account_unlinked', severity: 'warning', user_id: userId,
          application_id: meta.applicationId, ip_address: meta.ip, user_agent: meta.userAgent, details: { social_account_id: id } }, trx);
      }
      return result;
    });
    if (outcome === 'missing') throw new AppError('NOT_FOUND');
    if (outcome === 'last') throw new AppError('LAST_LOGIN_METHOD');
  }

  return { list, unlink };
}

export type SocialAccountService = ReturnType<typeof createSocialAccountService>;
