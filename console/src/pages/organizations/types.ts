/**
 * The organization routes' answers, as the server's OpenAPI document describes them (api-types.ts, generated:
 * docs/console.md).
 */
import type { Answer, Row } from '../../api';

export type OrgRef = NonNullable<Organization['parent']>;

/** An organization, with the caller's effective role and permissions there. */
export type Organization = Answer<'organizations/{slug}/'>;

/** A member row of `organizations/<slug>/members/`. */
export type Member = Row<'organizations/{slug}/members/'>;

export type OrgRole = Answer<'organizations/roles/'>[number];

export type Invitation = Row<'organizations/invitations/'>;
