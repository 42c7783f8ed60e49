import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../http/routes.js';
import { RequirementsResponse, StrengthBody, StrengthResponse, type StrengthInput } from './passwords.schemas.js';

/** SPEC.md "Passwords": GET password/requirements/, POST password/strength/ (both public). */
export default async function passwordRoutes(app: FastifyInstance, { container }: RouteDeps) {
  const { passwords } = container.services;
  const { config } = container;

  app.get('/password/requirements/', { schema: { tags: ['passwords'], response: { 200: RequirementsResponse } } },
    async () => ({ requirements: passwords.requirements(), min_length: config.PASSWORD_MIN_LENGTH, max_length: config.PASSWORD_MAX_LENGTH }));

  app.post('/password/strength/', { schema: { tags: ['passwords'], body: StrengthBody, response: { 200: StrengthResponse } } },
    async (req) => {
      const { password, email } = req.body as StrengthInput;
      return passwords.strength(password, { email: email ?? null });
    });
}
