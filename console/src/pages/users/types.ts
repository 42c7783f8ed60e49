/**
 * The admin user routes' answers, as the server's OpenAPI document describes them (api-types.ts, generated:
 * docs/console.md).
 */
import type { Answer, Row } from '../../api';

/** `GET admin/users/` rows. */
export type AdminUserSummary = Row<'admin/users/'>;

/** `GET admin/users/<id>/`. */
export type AdminUserDetail = Answer<'admin/users/{id}/'>;

/** The answer of lock, unlock, ban and unban. */
export type AdminUserAction = Answer<'admin/users/{id}/ban/', 'post'>;

export type RoleSummary = Row<'roles/'>;

/** `GET admin/refresh-tokens/` rows: one per refresh token, each belonging to a session. */
export type RefreshTokenRecord = Row<'admin/refresh-tokens/'>;

/** `GET admin/grants/?user_id=` rows: the account's grants to OAuth clients (docs/oauth.md "Grants"). */
export type OauthGrantRecord = Row<'admin/grants/'>;
