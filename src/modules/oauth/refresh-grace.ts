import { createHmac } from 'node:crypto';
import type { KoaContextWithOIDC, default as Provider } from 'oidc-provider';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { sha256Hex } from '../../security/random.js';
import * as repo from './records.repo.js';
import { handBack, readBody } from './request-body.js';

/** Set on a token request answered within the reuse grace: the provider then returns the successor without rotating it. */
const IN_GRACE = Symbol('gatehouse.refreshGrace');

/**
 * Refresh tokens rotate with a reuse grace, as Gatehouse's own (docs/oauth.md "Tokens"): a retired refresh token
 * presented again within `SVC_REFRESH_TOKEN_REUSE_GRACE` (a lost response, a retry) answers 200 with the same successor;
 * after it, the provider's reuse detection revokes the whole grant. The successor is derived from its predecessor with
 * a key (HMAC), so it is found again without keeping any token: only hashes are stored.
 */
export function createRefreshGrace({ db, clock, key, graceSeconds }: { db: Db; clock: Clock; key: Buffer; graceSeconds: number }) {
  /** The refresh token that replaces `predecessor` when it rotates. */
  const successorOf = (predecessor: string) => createHmac('sha256', key).update(`oauth-refresh:${predecessor}`).digest('base64url');

  /** Whether a retirement at `consumedAt` is within the grace window. */
  const withinGrace = (consumedAt: Date | null) =>
    consumedAt !== null && clock.now().getTime() - consumedAt.getTime() <= graceSeconds * 1000;

  /**
   * The provider's refresh tokens get their ids here: a rotation's new token (the provider has just put the one it
   * replaces in the request's `RotatedRefreshToken`) is derived from its predecessor; any other gets the provider's own
   * random id.
   */
  function deriveSuccessors(provider: Provider, ProviderClass: { readonly ctx: KoaContextWithOIDC | undefined }) {
    const proto = provider.RefreshToken.prototype as unknown as { generateTokenId(this: unknown): string };
    const random = proto.generateTokenId;
    proto.generateTokenId = function generateTokenId(this: unknown) {
      const rotated = ProviderClass.ctx?.oidc?.entities.RotatedRefreshToken as { jti?: string } | undefined;
      return rotated?.jti ? successorOf(rotated.jti) : random.call(this);
    };
  }

  /**
   * The token endpoint's pre-middleware: a retired refresh token within the grace window is swapped for its successor
   * (which the provider then returns without rotating it); a successor already used answers `invalid_grant` without
   * revoking anything. Anything else goes on untouched, to the provider's own reuse detection.
   */
  async function middleware(ctx: KoaContextWithOIDC, next: () => Promise<unknown>, tokenPath: string) {
    if (ctx.path !== tokenPath || ctx.method !== 'POST' || !ctx.is('application/x-www-form-urlencoded')) return next();
    const body = await readBody(ctx);
    const form = new URLSearchParams(body.toString('utf8'));
    const presented = form.get('refresh_token');
    if (form.get('grant_type') === 'refresh_token' && presented) {
      const now = clock.now();
      const record = await repo.findRecord(db, 'RefreshToken', sha256Hex(presented), now);
      if (record && withinGrace(record.consumed_at)) {
        const successor = successorOf(presented);
        const replacement = await repo.findRecord(db, 'RefreshToken', sha256Hex(successor), now);
        if (!replacement || replacement.consumed_at !== null) {
          ctx.status = 400;
          ctx.set('cache-control', 'no-store');
          ctx.body = { error: 'invalid_grant', error_description: 'refresh token already used' };
          return undefined;
        }
        form.set('refresh_token', successor);
        (ctx as unknown as Record<symbol, boolean>)[IN_GRACE] = true;
        handBack(ctx, Buffer.from(form.toString()));
        return next();
      }
    }
    handBack(ctx, body);
    return next();
  }

  return { successorOf, withinGrace, deriveSuccessors, middleware };
}

/** The provider's `rotateRefreshToken`: always, but for a successor handed out again within the grace window. */
export const rotateUnlessInGrace = (ctx: KoaContextWithOIDC) => (ctx as unknown as Record<symbol, boolean>)[IN_GRACE] !== true;

export type RefreshGrace = ReturnType<typeof createRefreshGrace>;
