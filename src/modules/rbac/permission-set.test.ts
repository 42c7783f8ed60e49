import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../core/errors.js';
import { ALL_PERMISSIONS, assertHoldsAll, missingFrom, permissionSet } from './permission-set.js';

describe('permission sets', () => {
  const held = permissionSet(['reports', 'reports.view', 'users.view']);

  it('holds exactly the codes given', () => {
    assert.equal(held.all, false);
    assert.equal(held.has('reports.view'), true);
    assert.equal(held.has('reports.export'), false);
    assert.equal(held.has('REPORTS'), false);
  });

  it('lists what is missing, sorted and once', () => {
    assert.deepEqual(missingFrom(held, ['z.b', 'users.view', 'a.c', 'z.b']), ['a.c', 'z.b']);
    assert.deepEqual(missingFrom(held, []), []);
  });

  it('refuses with PERMISSION_DENIED when any code is missing, and never for a superuser', () => {
    assert.doesNotThrow(() => assertHoldsAll(held, ['reports', 'users.view']));
    assert.throws(() => assertHoldsAll(held, ['reports', 'roles.manage']),
      (err: unknown) => err instanceof AppError && err.code === 'PERMISSION_DENIED' && err.status === 403);
    assert.doesNotThrow(() => assertHoldsAll(ALL_PERMISSIONS, ['anything', 'created.later']));
  });
});
