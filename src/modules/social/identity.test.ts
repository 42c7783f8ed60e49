import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { identityFromClaims, ProviderError, splitName } from './identity.js';

describe('identityFromClaims (docs/social-login.md "Which account signs in")', () => {
  it('keeps a verified address, lower-cased, with the names', () => {
    assert.deepEqual(identityFromClaims('google', { sub: 's1', email: 'Ann@Example.com', email_verified: true, given_name: 'Ann',
      family_name: 'Lee' }), { subject: 's1', email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee' });
  });

  it('drops an address not said to be verified', () => {
    assert.equal(identityFromClaims('acme', { sub: 's1', email: 'a@example.com', email_verified: false }).email, null);
    assert.equal(identityFromClaims('acme', { sub: 's1', email: 'a@example.com' }).email, null);
    assert.equal(identityFromClaims('acme', { sub: 's1', email: 'a@example.com', email_verified: 'true' }).email, null);
  });

  it('for microsoft, trusts only xms_edov, never email_verified', () => {
    assert.equal(identityFromClaims('microsoft', { sub: 's1', email: 'a@example.com', email_verified: true }).email, null);
    assert.equal(identityFromClaims('microsoft', { sub: 's1', email: 'a@example.com', xms_edov: true }).email, 'a@example.com');
  });

  it('refuses claims without a subject', () => {
    assert.throws(() => identityFromClaims('google', { email: 'a@example.com', email_verified: true }), ProviderError);
  });

  it('splits a full name at its first space', () => {
    assert.deepEqual(splitName('Octo Cat Junior'), { firstName: 'Octo', lastName: 'Cat Junior' });
    assert.deepEqual(splitName('Octo'), { firstName: 'Octo', lastName: '' });
    assert.deepEqual(splitName(null), { firstName: '', lastName: '' });
  });
});
