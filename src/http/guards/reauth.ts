import type { FastifyRequest } from 'fastify';
import type { ReauthService } from '../../modules/auth/reauth.service.js';
import { metaOf, userAuthOf } from '../request-meta.js';

export interface RecentAuthOptions {
  /** Only the requests it answers true for need a recent sign-in (PATCH me/: those that change the phone). */
  when?: (req: FastifyRequest) => boolean;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * A recent sign-in, or a proof in the body (docs/security.md "Recent authentication"): 403 REAUTHENTICATION_REQUIRED
 * otherwise. Declared in `preHandler`, after `user()`: it reads `password` and `totp_code` from the validated body.
 */
export const createRecentAuthGuard = (reauth: ReauthService) => ({ when }: RecentAuthOptions = {}) =>
  async (req: FastifyRequest) => {
    if (when && !when(req)) return;
    const body = (req.body ?? {}) as { password?: unknown; totp_code?: unknown };
    await reauth.confirm(userAuthOf(req), { password: text(body.password), totp_code: text(body.totp_code) }, metaOf(req));
  };
