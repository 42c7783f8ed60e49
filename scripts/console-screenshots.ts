// Takes the screenshots in docs/console.md: a real server with the console on, filled with a small organization's
// data through the API (accounts registered over two weeks, sign-ins that worked and failed, roles, applications,
// organizations, an agent waiting for approval, a deletion request, a webhook), then each page in Chromium.
//   npx tsx scripts/console-screenshots.ts          (needs /usr/bin/chromium and a built console: npm run build)
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { enableTotp } from '../test/factories/twofactor.js';
import { createUser } from '../test/factories/users.js';
import { account, agentApi, delegate } from '../test/http/agents/helpers.js';
import { confirmationToken } from '../test/http/deletion/helpers.js';
import { assignRole, createRole } from '../test/factories/rbac.js';
import { DESKTOP, PHONE, startConsole } from '../test/console/harness.js';

const OUT = join(import.meta.dirname, '..', 'docs', 'images', 'console');
const DAY = 24 * 3600;
const PEOPLE = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Katherine Johnson', 'Linus Torvalds', 'Margaret Hamilton',
  'Dennis Ritchie', 'Barbara Liskov', 'Ken Thompson', 'Frances Allen', 'Edsger Dijkstra', 'Radia Perlman', 'Tim Berners-Lee',
  'Hedy Lamarr', 'John McCarthy', 'Shafi Goldwasser', 'Donald Knuth', 'Sophie Wilson', 'Vint Cerf', 'Anita Borg'];

const c = await startConsole({ env: { SVC_ORGANIZATIONS_ENABLED: 'true', SVC_AUDIT_LOGGING_ENABLED: 'true',
  SVC_AIRS_CONFIRMATION_REQUIRED: 'users.manage' } });
const { t } = c;
const step = (what: string) => process.stdout.write(`${what}\n`);
/** Every call of the script must work: a refusal stops it, naming the call. */
const ok = async <T = Record<string, unknown>>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, what: string): Promise<T> => {
  const answer = await res;
  if (answer.statusCode >= 300) throw new Error(`${what}: ${answer.statusCode} ${answer.body}`);
  return answer.json() as T;
};
try {
  step('accounts and sign-ins over two weeks');
  const start = t.clock.now();
  t.clock.advance(-14 * DAY);
  const people = [];
  for (const [i, name] of PEOPLE.entries()) {
    const [first_name, last_name] = name.split(' ') as [string, string];
    const email = `${first_name.toLowerCase()}.${last_name.toLowerCase()}@example.com`;
    const registered = await ok<{ user: { id: number } }>(t.api({ method: 'POST', path: 'register/',
      payload: { email, password: 'correct horse battery staple', first_name, last_name } }), `register ${email}`);
    people.push({ id: Number(registered.user.id), email });
    for (let day = 0; day < (i % 4) + 1; day += 1) {
      await t.api({ method: 'POST', path: 'login/email/', payload: { email, password: 'correct horse battery staple' } });
      if ((i + day) % 3 === 0) await t.api({ method: 'POST', path: 'login/email/', payload: { email, password: 'a wrong guess' } });
    }
    t.clock.advance((14 * DAY) / PEOPLE.length);
  }
  t.clock.set(start);
  for (const p of people.slice(0, 7)) await enableTotp(t, p);

  step('roles, a locked and a banned account');
  await createRole(t.container.db, 'support', ['users.view', 'audit.view', 'dashboard.view']);
  for (const p of people.slice(2, 5)) await assignRole(t.container.db, p.id, 'support');
  const ops = await account(t, { email: 'ops@example.com', first_name: 'Orla', last_name: 'Ops' });
  await assignRole(t.container.db, ops.id, 'admin');
  const admin = await account(t, { email: 'olivia.admin@example.com', first_name: 'Olivia', last_name: 'Admin' });
  await assignRole(t.container.db, admin.id, 'admin');
  await t.container.db.updateTable('users').set({ locked_until: new Date(start.getTime() + 3600_000) }).where('id', '=', people[5]!.id).execute();
  await t.container.db.updateTable('users').set({ is_banned: true, ban_reason: 'Spam sign-ups' }).where('id', '=', people[6]!.id).execute();

  step('applications, organizations, a webhook');
  const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, payload?: object, token = ops.token) =>
    t.api({ method, path, token, ...(payload ? { payload } : {}) });
  await ok(api('POST', 'applications/', { name: 'Storefront', description: 'The shop\'s single-page app', kind: 'public',
    allowed_origins: ['https://shop.example.com'], redirect_uris: ['https://shop.example.com/callback'] }), 'public application');
  await ok(api('POST', 'applications/', { name: 'Billing service', description: 'Invoices and payments backend' }), 'application');
  const acme = await ok<{ id: number }>(api('POST', 'organizations/', { name: 'Acme', slug: 'acme', description: 'Head office', max_members: 50 }), 'organization');
  await ok(api('POST', 'organizations/', { name: 'Acme Europe', slug: 'acme-eu', parent_id: acme.id }), 'sub-organization');
  await ok(api('POST', 'organizations/', { name: 'Acme Labs', slug: 'acme-labs', parent_id: acme.id }), 'sub-organization');
  for (const p of people.slice(0, 6)) {
    await ok(t.api({ method: 'POST', path: 'organizations/members/add/', token: ops.token, headers: { 'x-org-slug': 'acme' },
      payload: { user_id: p.id, role_code: 'member' } }), 'member');
  }
  await ok(t.api({ method: 'POST', path: 'organizations/invitations/', token: ops.token, headers: { 'x-org-slug': 'acme' },
    payload: { email: 'new.hire@example.com', role_code: 'admin', expires_in_days: 7 } }), 'invitation');
  await ok(api('POST', 'webhooks/', { url: 'http://127.0.0.1:9/gatehouse-events', events: ['user.created', 'session.created'] }), 'webhook');

  step('an agent waiting for approval, a deletion request');
  const { access_token: operatorToken } = await ok<{ access_token: string }>(t.api({ method: 'POST', path: 'login/email/',
    payload: { email: c.operator.email, password: c.operator.password, totp_code: c.operator.code() } }), 'operator sign-in');
  t.clock.advance(30);
  const agent = await delegate(t, { ...ops, token: operatorToken } as typeof ops,
    { agent_id: 'support-assistant', permissions: ['users.view', 'users.manage'], budget_limit_usd: 25, expires_in: DAY });
  await ok(agentApi(t)('POST', `admin/users/${people[9]!.id}/ban/`, agent.token, { reason: 'Chargeback fraud' },
    { 'x-prompt-trace-id': 'ticket-4711' }), 'agent action');
  const leaving = people[12]!;
  const { access_token: token } = await ok<{ access_token: string }>(t.api({ method: 'POST', path: 'login/email/',
    payload: { email: leaving.email, password: 'correct horse battery staple' } }), 'sign-in');
  await ok(t.api({ method: 'POST', path: 'request-account-deletion/', token,
    payload: { password: 'correct horse battery staple', reason: 'Moving to another provider' } }), 'deletion request');
  await ok(t.api({ method: 'POST', path: 'confirm-account-deletion/', payload: { token: await confirmationToken(t, leaving.email) } }), 'confirmation');
  await createUser(t, { email: 'sam@example.com', first_name: 'Sam', last_name: 'Sample' });

  const { page } = await c.signedIn({ viewport: DESKTOP });
  const shoot = async (target: Page, hash: string, name: string) => {
    await target.goto(`${c.origin}/console/${hash}`);
    await target.getByRole('heading', { level: 1 }).first().waitFor();
    await target.waitForLoadState('networkidle');
    await target.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
    step(`  ${name}.png`);
  };
  step('screenshots');
  await shoot(page, '#/', 'dashboard');
  await shoot(page, '#/users', 'users');
  await shoot(page, `#/users/${people[5]!.id}`, 'user-detail');
  await shoot(page, '#/roles', 'roles');
  await shoot(page, '#/applications', 'applications');
  await shoot(page, '#/organizations', 'organizations');
  await shoot(page, '#/organizations/acme', 'organization-detail');
  await shoot(page, '#/agents', 'agents');
  await shoot(page, '#/deletions', 'deletions');
  await shoot(page, '#/audit', 'audit');
  await shoot(page, '#/login-attempts', 'login-attempts');
  await shoot(page, '#/webhooks', 'webhooks');
  const phone = await c.signedIn({ viewport: PHONE });
  await shoot(phone.page, '#/', 'dashboard-phone');
  const signIn = await c.open();
  await signIn.page.screenshot({ path: join(OUT, 'sign-in.png') });
  step('  sign-in.png');
} finally {
  await c.close();
}
