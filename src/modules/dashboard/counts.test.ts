import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyCounts, failuresOf, secondStepsOf, successesOf, type Counts } from './counts.js';

describe('dashboard sign-in counts', () => {
  it('counts the second steps asked for (2FA required, 2FA setup required) apart from the failures', () => {
    const c: Counts = {
      ...emptyCounts(),
      logins: { password: { success: 3, failed: 5 }, otp: { success: 1, failed: 1 } },
      failures: { invalid_credentials: 2, '2fa_required': 2, admin_2fa_setup_required: 1, invalid_code: 1 },
    };
    assert.equal(successesOf(c), 4);
    assert.equal(secondStepsOf(c), 3);
    assert.equal(failuresOf(c), 3);
  });

  it('answers 0 second steps when no attempt asked for one', () => {
    const c: Counts = { ...emptyCounts(), logins: { password: { success: 0, failed: 2 } }, failures: { invalid_credentials: 2 } };
    assert.equal(secondStepsOf(c), 0);
    assert.equal(failuresOf(c), 2);
  });
});
