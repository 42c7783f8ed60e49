import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { pageRequest, type PageQueryInput } from '../../core/pagination.js';
import type { RequestMeta } from '../../core/request-meta.js';
import type { Db, Executor } from '../../db/database.js';
import type { AppCredentialService } from '../applications/app-credentials.service.js';
import type { AuditService } from '../audit/audit.service.js';
import { sha256Hex } from '../../security/random.js';
import * as repo from './records.repo.js';

type Deps = { db: Db; clock: Clock; audit: AuditService; appCredentials: AppCredentialService };

/** A grant as the provider stores it (the part Gatehouse reads). */
interface GrantPayload {
  clientId?: string;
  iat?: number;
  openid?: { scope?: string };
  resources?: Record<string, string>;
}

/**
 * The grants people approved (docs/oauth.md "Grants"): each is a delegation, listed with `me/grants/`, revocable by
 * the person and by an administrator, and revoked with everything it issued by every event that ends the person's
 * sessions — in that event's transaction, like agent tokens.
 */
export function createOauthGrantService({ db, clock, audit, appCredentials }: Deps) {
  /** The grant's state: its delegation's (an expired one reads expired), or active for a grant without one. */
  function statusOf(row: repo.GrantRow): 'active' | 'suspended' | 'revoked' | 'expired' {
    if (row.delegation_status === null) return 'active';
    if (row.delegation_status === 'REVOKED') return 'revoked';
    if (row.delegation_status === 'EXPIRED' || new Date(row.delegation_expires_at!) <= clock.now()) return 'expired';
    return row.delegation_status === 'SUSPENDED' ? 'suspended' : 'active';
  }

  async function toGrant(row: repo.GrantRow) {
    const grantId = row.grant_id!;
    const payload = row.payload as GrantPayload;
    const clientId = payload.clientId ?? '';
    const app = await appCredentials.activeApplication(clientId);
    const registered = app ? undefined : await repo.findRegisteredClient(db, sha256Hex(clientId));
    const registeredName = (registered?.payload as { client_name?: string } | undefined)?.client_name;
    const resources = Object.keys(payload.resources ?? {});
    const scopes = [...new Set([...(payload.openid?.scope ?? '').split(' '), ...Object.values(payload.resources ?? {}).flatMap((s) => s.split(' '))])]
      .filter(Boolean);
    return {
      id: grantId, client_id: clientId, client_name: app?.name ?? registeredName ?? clientId, verified: app !== null,
      resource: resources[0] ?? null, scopes, organization: row.organization_slug, status: statusOf(row),
      delegation: row.delegation_id === null ? null : {
        agent_token_id: Number(row.delegation_id), max_requests_per_minute: row.max_requests_per_minute!,
        budget_limit_usd: row.budget_limit_usd === null ? null : Number(row.budget_limit_usd),
        expires_at: new Date(row.delegation_expires_at!).toISOString(),
      },
      created_at: new Date((payload.iat ?? 0) * 1000).toISOString(),
    };
  }

  async function list(userId: number, query: PageQueryInput) {
    const page = pageRequest(query);
    const { rows, count } = await repo.listGrantsOf(db, userId, clock.now(), page.pageSize, page.offset);
    return { results: await Promise.all(rows.map(toGrant)), count, page };
  }

  /** Revokes a grant and everything it issued; `owner` restricts it to that person's grants (another's id is a 404). */
  async function revoke(grantId: string, by: { owner?: number; actorId: number }, meta: RequestMeta): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const grant = await repo.findGrant(trx, grantId, clock.now());
      if (!grant || (by.owner !== undefined && grant.account_id !== by.owner)) throw new AppError('NOT_FOUND');
      await repo.endGrant(trx, grantId, clock.now());
      await audit.record({ event_type: 'oauth_grant_revoked', severity: 'warning', user_id: grant.account_id, actor_id: by.actorId,
        application_id: meta.applicationId, ip_address: meta.ip, user_agent: meta.userAgent,
        details: { grant_id: grantId, client_id: (grant.payload as GrantPayload).clientId ?? null } }, trx);
    });
  }

  /** Every grant of a person and what it issued, in the caller's transaction (an event ending all their sessions). */
  async function revokeAllOf(trx: Executor, userId: number, reason: string): Promise<number> {
    const ids = await repo.deleteAccountRecords(trx, userId);
    if (ids.length > 0) {
      await audit.record({ event_type: 'oauth_grants_revoked', severity: 'warning', user_id: userId,
        details: { grant_ids: ids, count: ids.length, reason } }, trx);
    }
    return ids.length;
  }

  return { list, revoke, revokeAllOf };
}

export type OauthGrantService = ReturnType<typeof createOauthGrantService>;
