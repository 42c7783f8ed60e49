import type { LoginUser } from './users.repo.js';

/** Inactive, banned and deleted accounts sign in by no method and are sent no codes or links. */
export const canSignIn = (u: Pick<LoginUser, 'is_active' | 'is_banned' | 'deleted_at'>): boolean =>
  u.is_active && !u.is_banned && u.deleted_at === null;
