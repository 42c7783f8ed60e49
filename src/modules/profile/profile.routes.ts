import type { FastifyInstance } from 'fastify';
import { authOf } from '../../http/guards/index.js';
import type { RouteDeps } from '../../http/routes.js';
import { ProfileResponse, RolesResponse, UpdateProfileBody, UpdateProfileResponse, type UpdateProfileInput } from './profile.schemas.js';

/** SPEC.md "Profile": GET/PATCH me/, GET me/roles/. */
export default async function profileRoutes(app: FastifyInstance, { container, guards }: RouteDeps) {
  const { profile } = container.services;
  const user = guards.user();

  app.get('/me/', { schema: { tags: ['profile'], response: { 200: ProfileResponse } }, onRequest: [user] },
    async (req) => profile.fromAuthenticated(authOf(req).user));

  app.patch('/me/', { schema: { tags: ['profile'], body: UpdateProfileBody, response: { 200: UpdateProfileResponse } }, onRequest: [user] },
    async (req) => profile.update(authOf(req).user.id, req.body as UpdateProfileInput));

  app.get('/me/roles/', { schema: { tags: ['profile'], response: { 200: RolesResponse } }, onRequest: [user] },
    async (req) => profile.roles(authOf(req).user.id));
}
