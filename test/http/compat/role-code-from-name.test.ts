import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createPermission } from '../../factories/rbac.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertValidation } from '../auth/assertions.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus } from '../../helpers/answers.js';
import { sdk } from './sdk-request.js';

/**
 * SDK compatibility (docs/migrating-from-tenxyte.md): createRole sends no `code`; it is derived from `name` (lower-cased, each run of other characters
 * as one `_`, trimmed), and a derived code that clashes answers 400 as a duplicate code does.
 */
describe('SDK compatibility: role code derived from the name', () => {
  const t = useTestApp();
  let root: Account;
  beforeEach(async () => {
    root = await account(t, { is_superuser: true });
    await createPermission(t.container.db, 'reports.view');
  });

  const createRole = (body: object) => sdk(t, 'POST', 'roles/', { token: root.token, body });

  it('createRole {name, description, permission_codes, is_default} answers 201 with the derived code', async () => {
    const body = expectStatus(await createRole({ name: 'Support Agent', description: 'Front line', permission_codes: ['reports.view'],
      is_default: false }), 201);
    assert.deepEqual([body.code, body.name, body.description, body.is_default], ['support_agent', 'Support Agent', 'Front line', false]);
    assert.deepEqual(body.permissions.map((p: { code: string }) => p.code), ['reports.view']);
    assert.equal(expectStatus(await sdk(t, 'GET', `roles/${body.id}/`, { token: root.token }), 200).code, 'support_agent');
  });

  it('collapses runs of other characters into one _, trims them, and drops accents', async () => {
    assert.equal(expectStatus(await createRole({ name: '  Sales -- EU / North!' }), 201).code, 'sales_eu_north');
    assert.equal(expectStatus(await createRole({ name: 'Éditeur Réseau' }), 201).code, 'editeur_reseau');
  });

  it('answers 400 on code when the derived code is taken, as for a duplicate code sent', async () => {
    expectStatus(await createRole({ name: 'Support Agent' }), 201);
    for (const name of ['support agent', 'SUPPORT-AGENT']) {
      assert.deepEqual(assertValidation(await createRole({ name }), 'code').details, { code: ['A role with this code already exists.'] });
    }
    assert.deepEqual(assertValidation(await createRole({ name: 'Administrator!', code: 'admin' }), 'code').details,
      { code: ['A role with this code already exists.'] });
  });

  it('answers 400 on name when no code can be derived from it, and creates nothing', async () => {
    const before = expectStatus(await sdk(t, 'GET', 'roles/', { token: root.token }), 200).count;
    for (const name of ['---', '日本語', 'a'.repeat(101)]) assertValidation(await createRole({ name }), 'name');
    assertValidation(await createRole({ name: '   ' }), 'name');
    assert.equal(expectStatus(await sdk(t, 'GET', 'roles/', { token: root.token }), 200).count, before);
  });

  it('keeps a code that is sent, with the usual role-code rules', async () => {
    assert.equal(expectStatus(await createRole({ name: 'Support Agent', code: 'support.tier-1' }), 201).code, 'support.tier-1');
    assertValidation(await createRole({ name: 'Bad', code: 'Bad Code' }), 'code');
  });
});
