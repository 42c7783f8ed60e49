import { Type } from 'typebox';
import { AppError } from '../../core/errors.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';

/**
 * Headers of a served avatar. Its name is random and never reused, so its content never changes: cached for a year.
 * Nothing in it may run (`default-src 'none'`) or be read as another type (`nosniff`); front ends on other sites may
 * embed it (`cross-origin-resource-policy`, which the API's own answers keep `same-site`).
 */
const AVATAR_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'",
  'cross-origin-resource-policy': 'cross-origin',
  'cache-control': 'public, max-age=31536000, immutable',
} as const;

/** Any text: a name that cannot be an avatar's answers 404 like a missing one. */
const AvatarParams = Type.Object({ name: Type.String() });

/**
 * Uploaded avatars (docs/authentication.md "Profile"), at the root and without application credentials, since an
 * `<img>` cannot send them. GET (and HEAD); an unknown or malformed name answers 404.
 */
export default async function mediaRoutes(app: TypedApp, { container }: RouteDeps) {
  const { profile } = container.services;

  app.get('/media/avatars/:name', { schema: { hide: true, params: AvatarParams } }, async (req, reply) => {
    const image = await profile.avatarFile(req.params.name);
    if (!image) throw new AppError('NOT_FOUND');
    return reply.headers(AVATAR_HEADERS).type(image.contentType).send(image.bytes);
  });
}
