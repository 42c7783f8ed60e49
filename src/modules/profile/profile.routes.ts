import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, requestedSlug } from '../../http/guards/index.js';
import type { RouteDeps } from '../../http/route-plugin.js';
import { readProfileForm, registerProfileForm, uploadedAvatar } from './profile-form.js';
import { ProfileResponse, RolesResponse, UpdateProfileBody, UpdateProfileResponse, type UpdateProfileInput } from './profile.schemas.js';

const WITH_ORG_SLUG = 'With X-Org-Slug (SVC_ORGANIZATIONS_ENABLED on), organization_context holds the caller\'s effective role '
  + 'and permissions there: 404 ORG_NOT_FOUND for an unknown slug, 403 NOT_MEMBER where the caller holds no role.';

const PATCH_ME = 'A JSON body, or `multipart/form-data` with a file part `avatar` (PNG, JPEG or WebP by its bytes, at most 2 MB) '
  + 'and the same fields as text parts (`custom_fields` as JSON text). The avatar is served at `/media/avatars/<name>` '
  + 'and its URL answered in `user.avatar` and `avatar`. Unknown parts, a second file or another kind of file answer 400. '
  + 'Changing `phone` needs a sign-in within SVC_REAUTH_MAX_AGE, or `password` (and `totp_code` with 2FA) in the body: '
  + 'else 403 REAUTHENTICATION_REQUIRED.';

/** SPEC.md "Profile": GET/PATCH me/, GET me/roles/; SDK-COMPAT.md rule 18 (the avatar upload). */
export default async function profileRoutes(app: FastifyInstance, { container, guards }: RouteDeps) {
  const { profile } = container.services;
  const user = guards.user();
  // DECISIONS.md "Agents": an agent reads its delegating user's profile and roles, and changes nothing here.
  const userOrAgent = guards.user({ agents: true });
  // DECISIONS.md "Organizations": the header is optional here, and ignored while organizations are off.
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

  const changingContactNeedsRecentAuth = guards.recentAuth({
    when: (req) => profile.changesContact(authOf(req).user, req.body as UpdateProfileInput),
  });

  // A scope of its own: only this route also reads `multipart/form-data` (the SDK's avatar upload).
  await app.register(async (scope) => {
    await registerProfileForm(scope, container.config.BODY_LIMIT);
    scope.patch('/me/', {
      schema: { tags: ['profile'], description: PATCH_ME, body: UpdateProfileBody, response: { 200: UpdateProfileResponse } },
      onRequest: [user],
      preValidation: [readProfileForm],
      preHandler: [changingContactNeedsRecentAuth],
    }, async (req) => profile.update(authOf(req).user.id, req.body as UpdateProfileInput, uploadedAvatar(req)));
  });

  app.get('/me/roles/', { schema: { tags: ['profile'], description: WITH_ORG_SLUG, response: { 200: RolesResponse } }, onRequest: [userOrAgent] },
    async (req) => {
      const org = namedOrganization(req);
      return profile.roles(authOf(req).user.id, org && await org);
    });
}
