import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus } from '../../helpers/answers.js';

export { account, type Account } from '../../factories/accounts.js';
export { expectStatus } from '../../helpers/answers.js';
export { auditEvents } from '../../helpers/audit.js';

export const ORG_ENV = { SVC_ORGANIZATIONS_ENABLED: 'true', SVC_AUDIT_LOGGING_ENABLED: 'true' };

/** A request on behalf of `who`, in the organization `slug` (sent as X-Org-Slug) when given. */
export function orgApi(t: TestApp) {
  return (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, who: Account | null, opts: { slug?: string; payload?: unknown } = {}) =>
    t.api({ method, path, ...(who ? { token: who.token } : {}), ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}),
      headers: opts.slug ? { 'x-org-slug': opts.slug } : {} }) as Promise<LightMyRequestResponse>;
}

/** Creates an organization as `owner` through the API (under `parent`, a slug, when given); answers its body. */
export async function createOrg(t: TestApp, owner: Account, slug: string, parentSlug?: string, extra: object = {}) {
  let parent_id: number | undefined;
  if (parentSlug) {
    parent_id = (await t.container.db.selectFrom('organizations').select('id').where('slug', '=', parentSlug).executeTakeFirstOrThrow()).id;
  }
  return expectStatus(await orgApi(t)('POST', 'organizations/', owner, {
    payload: { name: slug.toUpperCase(), slug, ...(parent_id ? { parent_id } : {}), ...extra } }), 201);
}

/** Makes `who` a member of `slug` with `role`, straight in the database. */
export async function join(t: TestApp, slug: string, who: Account, role: 'owner' | 'admin' | 'member') {
  const db = t.container.db;
  const org = await db.selectFrom('organizations').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
  const r = await db.selectFrom('org_roles').select('id').where('code', '=', role).executeTakeFirstOrThrow();
  await db.insertInto('organization_members').values({ organization_id: org.id, user_id: who.id, org_role_id: r.id, invited_by: null })
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doUpdateSet({ org_role_id: r.id })).execute();
}

export const errorOf = (code: string) => (res: LightMyRequestResponse) => {
  const body = res.json();
  if (body.code !== code) throw new Error(`expected ${code}, got ${res.statusCode}: ${res.body}`);
  return res.statusCode;
};

/** Signed-in accounts named `<name>@example.com`, one per name, in order. */
export async function accounts<const N extends readonly string[]>(t: TestApp, ...names: N): Promise<{ [K in keyof N]: Account }> {
  const out: Account[] = [];
  for (const name of names) out.push(await account(t, { email: `${name}@example.com`, first_name: name }));
  return out as { [K in keyof N]: Account };
}

/** Marks the accounts' email addresses verified, as an inviter's must be (docs/organizations.md). */
export async function verifyEmails(t: TestApp, ...who: Account[]) {
  await t.container.db.updateTable('users').set({ is_email_verified: true }).where('id', 'in', who.map((a) => a.id)).execute();
}
