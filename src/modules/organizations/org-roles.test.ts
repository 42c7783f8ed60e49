import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canGrant, canManage, effectiveRole, permissionLists, type OrgRoleGrant } from './org-roles.js';

const owner: OrgRoleGrant = { code: 'owner', name: 'Owner', weight: 100, permissions: ['org.manage', 'org.owner', 'org.view'] };
const admin: OrgRoleGrant = { code: 'admin', name: 'Admin', weight: 80, permissions: ['org.members.invite', 'org.view'] };
const member: OrgRoleGrant = { code: 'member', name: 'Member', weight: 20, permissions: ['org.view'] };

describe('org-roles', () => {
  it('takes the heaviest of the own and inherited roles', () => {
    assert.equal(effectiveRole({ own: member, inherited: [admin] })?.code, 'admin');
    assert.equal(effectiveRole({ own: owner, inherited: [admin, member] })?.code, 'owner');
    assert.equal(effectiveRole({ own: null, inherited: [member] })?.code, 'member');
    assert.equal(effectiveRole({ own: null, inherited: [] }), null);
  });

  it('lists own, inherited and effective permissions, sorted and without repeats', () => {
    assert.deepEqual(permissionLists({ own: member, inherited: [admin] }), {
      permissions: ['org.view'], inherited_permissions: ['org.members.invite', 'org.view'],
      effective_permissions: ['org.members.invite', 'org.view'],
    });
    assert.deepEqual(permissionLists({ own: null, inherited: [] }), { permissions: [], inherited_permissions: [], effective_permissions: [] });
  });

  it('grants only roles of weight at most the caller\'s, and owner only by an owner', () => {
    assert.equal(canGrant(admin, member), true);
    assert.equal(canGrant(admin, admin), true);
    assert.equal(canGrant(admin, owner), false);
    assert.equal(canGrant(member, admin), false);
    assert.equal(canGrant(owner, owner), true);
    assert.equal(canGrant({ ...admin, weight: 100 }, owner), false, 'a weight of 100 is not ownership');
  });

  it('manages only members of lower weight, owners anyone', () => {
    assert.equal(canManage(admin, member), true);
    assert.equal(canManage(admin, admin), false);
    assert.equal(canManage(member, member), false);
    assert.equal(canManage(owner, owner), true);
  });
});
