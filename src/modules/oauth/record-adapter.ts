import type { Adapter, AdapterPayload, errors as ProviderErrors } from 'oidc-provider';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { sha256Hex } from '../../security/random.js';
import type { OauthClients } from './clients.js';
import * as repo from './records.repo.js';
import { JWT_RECORD } from './jwt-access-tokens.js';

/** What the provider stores beside a payload, as columns. */
const GRANT_KEYED = (model: string, id: string, payload: AdapterPayload) => (model === 'Grant' ? id : payload.grantId ?? null);

/** The person a record belongs to: the `accountId` of grants, codes and tokens, the account of a signed-in session. */
function accountOf(payload: AdapterPayload): number | null {
  const id = payload.accountId ?? payload.account;
  return typeof id === 'string' && /^[1-9][0-9]{0,17}$/.test(id) ? Number(id) : null;
}

/**
 * The provider's storage in Gatehouse's database (docs/oauth.md "Storage"): one row per record in `oauth_records`, found
 * by the SHA-256 of its id (a code, a token, a cookie value) and stored without it. A code is consumed in one
 * statement, so of two redemptions of the same code exactly one wins and the other revokes what the code issued.
 * `Client` records are Gatehouse's applications first (clients.ts), then the clients registered dynamically.
 */
export function recordAdapter(db: Db, clock: Clock, clients: OauthClients, errors: typeof ProviderErrors,
  /** Whether a refresh token retired at that time is within its reuse grace (refresh-grace.ts). */
  withinGrace: (consumedAt: Date | null) => boolean) {
  return class RecordAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const { jti: _id, ...stored } = payload;
      await repo.upsertRecord(db, {
        model: this.model, idHash: sha256Hex(id), payload: stored, grantId: GRANT_KEYED(this.model, id, payload),
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        accountId: accountOf(payload),
        expiresAt: expiresIn ? new Date(clock.now().getTime() + expiresIn * 1000) : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') {
        const application = await clients.metadataOf(id);
        if (application) return application;
      }
      const row = await repo.findRecord(db, this.model, sha256Hex(id), clock.now());
      return row && this.payloadOf(row, id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      // The session's id (its cookie) is not stored: what reads a session by uid reads its account and grants only.
      const row = await repo.findRecordByUid(db, this.model, uid, clock.now());
      return row && this.payloadOf(row, undefined);
    }

    async findByUserCode(): Promise<AdapterPayload | undefined> {
      return undefined; // the device flow is off
    }

    async consume(id: string): Promise<void> {
      const { consumed, grantId, consumedAt } = await repo.consumeRecord(db, this.model, sha256Hex(id), clock.now());
      if (consumed) return;
      // Redeemed meanwhile by a parallel request: as for any replay, what it issued is revoked — but for a refresh token
      // retired within its reuse grace (parallel refreshes): that request is refused, and a retry gets the successor.
      if (grantId && !(this.model === 'RefreshToken' && withinGrace(consumedAt))) await repo.endGrant(db, grantId, clock.now());
      throw new errors.InvalidGrant(`${this.model === 'AuthorizationCode' ? 'authorization code' : 'token'} already consumed`);
    }

    async destroy(id: string): Promise<void> {
      // A grant destroyed (revoked, or ended with the session it expired with) takes its tokens and delegation with it.
      if (this.model === 'Grant') await repo.endGrant(db, id, clock.now());
      else await repo.deleteRecord(db, this.model, sha256Hex(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      // The grant's access tokens include the JWTs recorded for its resources (jwt-access-tokens.ts).
      await repo.deleteModelRecordsOfGrant(db, this.model === 'AccessToken' ? ['AccessToken', JWT_RECORD] : [this.model], grantId);
    }

    private payloadOf(row: { payload: Record<string, unknown>; consumed_at: Date | null }, id: string | undefined): AdapterPayload {
      return {
        ...row.payload,
        ...(id !== undefined ? { jti: id } : {}),
        ...(row.consumed_at ? { consumed: Math.floor(row.consumed_at.getTime() / 1000) } : {}),
      } as AdapterPayload;
    }
  };
}
