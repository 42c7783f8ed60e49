import type { TestApp } from '../helpers/test-app.js';

/** A second application created through the application service; answers its id and request headers. */
export async function createApplication(t: TestApp, input: { name?: string; allowed_origins?: string[] } = {}) {
  const { application, credentials } = await t.container.services.applications.create({
    name: input.name ?? 'Other App', allowed_origins: input.allowed_origins ?? [],
  });
  return {
    id: application.id,
    headers: { 'x-access-key': credentials.access_key, 'x-access-secret': credentials.access_secret },
  };
}

/** Replaces the allowed origins of an application (the cached credentials are dropped so the change applies). */
export async function setAllowedOrigins(t: TestApp, applicationId: number, origins: string[]) {
  await t.container.db.updateTable('applications').set({ allowed_origins: JSON.stringify(origins) })
    .where('id', '=', applicationId).execute();
  t.container.services.applications.invalidate();
}

/**
 * A public application (docs/decisions.md "Public applications") created through the application service: key only, pinned to
 * `allowed_origins`. Answers its id, key and request headers (the key alone: a browser sends its Origin itself).
 */
export async function createPublicApplication(t: TestApp, input: { name?: string; allowed_origins: string[]; redirect_uris?: string[] }) {
  const { application, credentials } = await t.container.services.applications.create({
    name: input.name ?? 'Browser App', kind: 'public', allowed_origins: input.allowed_origins, redirect_uris: input.redirect_uris ?? [],
  });
  return { id: application.id, access_key: credentials.access_key, headers: { 'x-access-key': credentials.access_key } };
}
