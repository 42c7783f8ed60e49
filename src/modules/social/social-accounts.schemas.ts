import { Type } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Nullable } from '../../http/schema.js';
import type { IdentityRow } from './social-accounts.repo.js';

const When = Type.String({ format: 'date-time' });

/** One identity at a social-login provider, as its owner sees it. */
export const SocialIdentity = Type.Object({
  id: Type.Integer(),
  provider: Type.String({ description: 'The configured provider name (`google`, `github`, …)' }),
  email: Nullable(Type.String({ description: 'The verified address the provider gave' })),
  linked_at: When,
  last_login_at: Nullable(When),
});

export const toSocialIdentity = (r: IdentityRow) => ({
  id: r.id, provider: r.provider, email: r.email, linked_at: toIso(r.linked_at)!, last_login_at: toIso(r.last_login_at),
});
