import type { FastifyRequest } from 'fastify';
import { authOf, requestedSlug } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { readProfileForm, registerProfileForm, uploadedAvatar } from './profile-form.js';
import { ProfileResponse, RolesResponse, UpdateProfileBody, UpdateProfileResponse } from './profile.schemas.js';

const WITH_ORG_SLUG = 'With X-Org-Slug (SVC_ORGANIZATIONS_ENABLED on), organization_context holds the caller\'s effective role '
  + 'and permissions there: 404 ORG_NOT_FOUND for an unknown slug, 403 NOT_MEMBER where the caller holds no role.';

const PATCH_ME = 'A JSON body, or `multipart/form-data` with a file part `avatar` (PNG, JPEG or WebP by its bytes, at most 2 MB) '
  + 'and the same fields as text parts (`custom_fields` as JSON text). The avatar is served at `/media/avatars/<name>` '
  + 'and its URL answered in `user.avatar` and `avatar`. Unknown parts, a second file or another kind of file answer 400. '
  + 'Changing `phone` needs a sign-in within SVC_REAUTH_MAX_AGE, or `password` (and `totp_code` with 2FA) in the body: '
  + 'else 403 REAUTHENTICATION_REQUIRED.';

/** docs/authentication.md "Profile": GET/PATCH me/, GET me/roles/; docs/migrating-from-tenxyte.md rule 18 (the avatar upload). */
export default async function profileRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { profile } = container.services;
  const user = guards.user();
  // docs/decisions.md "Agents": an agent reads its delegating user's profile and roles, and changes nothing here.
  const userOrAgent = guards.user({ agents: true });
  // The header is optional here, and ignored while organizations are off (docs/organizations.md "Organization context on
  // the profile").
  const orgsEnabled = container.config.ORGANIZATIONS_ENABLED;

  /**
   * The organization `X-Org-Slug` names, resolved as the `org()` guard does, or undefined without the header: the
   * common case stays one branch, with no promise to wait for.
   */
  function namedOrganization(req: FastifyRequest) {
    const slug = orgsEnabled ? requestedSlug(req) : undefined;
    return slug ? guards.orgContext(req, slug) : undefined;
  }

  app.get('/me/', { schema: { tags: ['profile'], description: WITH_ORG_SLUG, response: { 200: ProfileResponse } }, onRequest: [userOrAgent] },
    async (req) => {
      const org = namedOrganization(req);
      return profile.fromAuthenticated(authOf(req).user, org && await org);
    });

  const recentAuth = guards.recentAuth();

  // A scope of its own: only this route also reads `multipart/form-data` (the SDK's avatar upload).
  await app.register(async (scope: TypedApp) => {
    await registerProfileForm(scope, container.config.BODY_LIMIT);
    scope.patch('/me/', {
      schema: { tags: ['profile'], description: PATCH_ME, body: UpdateProfileBody, response: { 200: UpdateProfileResponse } },
      onRequest: [user],
      preValidation: [readProfileForm],
      // Only a change of phone needs a recent sign-in (or the proof in the body); the body is validated by now.
      preHandler: [async (req) => { if (profile.changesContact(authOf(req).user, req.body)) await recentAuth(req); }],
    }, async (req) => profile.update(authOf(req).user.id, req.body, uploadedAvatar(req)));
  });

  app.get('/me/roles/', { schema: { tags: ['profile'], description: WITH_ORG_SLUG, response: { 200: RolesResponse } }, onRequest: [userOrAgent] },
    async (req) => {
      const org = namedOrganization(req);
      return profile.roles(authOf(req).user.id, org && await org);
    });
}
