import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { assertError, assertValidation } from '../auth/assertions.js';

const STRENGTH_FIELDS = ['errors', 'is_valid', 'requirements', 'score', 'strength'];
const REQUIREMENT_FIELDS = ['min_length', 'require_lowercase', 'require_numbers', 'require_special', 'require_uppercase'];

describe('password requirements and strength', () => {
  const t = useTestApp({ env: { SVC_PASSWORD_MIN_LENGTH: '12' } });

  const strength = (payload: Record<string, unknown>) => t.api({ method: 'POST', path: 'password/strength/', payload });

  describe('GET password/requirements/', () => {
    it('answers {requirements{…}, min_length, max_length} from the configured policy', async () => {
      const res = await t.api({ method: 'GET', path: 'password/requirements/' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        requirements: { min_length: 12, require_lowercase: false, require_uppercase: false, require_numbers: false, require_special: false },
        min_length: 12, max_length: 128,
      });
    });

    it('reports composition rules that are switched on', async () => {
      const strict = await createTestApp({ env: { SVC_PASSWORD_REQUIRE_UPPERCASE: 'true', SVC_PASSWORD_REQUIRE_SPECIAL: 'true' } });
      try {
        const body = (await strict.api({ method: 'GET', path: 'password/requirements/' })).json();
        assert.equal(body.requirements.require_uppercase, true);
        assert.equal(body.requirements.require_special, true);
        assert.equal(body.requirements.require_numbers, false);
      } finally {
        await strict.close();
      }
    });

    it('needs application credentials', async () => {
      assertError(await t.api({ method: 'GET', path: 'password/requirements/', appAuth: false }), 401, 'APP_AUTH_REQUIRED');
    });
  });

  describe('POST password/strength/', () => {
    it('answers {score, strength, is_valid, errors, requirements} for a strong password', async () => {
      const res = await strength({ password: 'correct horse battery staple' });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), STRENGTH_FIELDS);
      assert.equal(body.score, 4);
      assert.equal(body.strength, 'very_strong');
      assert.equal(body.is_valid, true);
      assert.deepEqual(body.errors, []);
      assert.deepEqual(Object.keys(body.requirements).sort(), REQUIREMENT_FIELDS);
    });

    it('scores a common password 0 (very_weak) and refuses it', async () => {
      const body = (await strength({ password: 'password' })).json();
      assert.equal(body.score, 0);
      assert.equal(body.strength, 'very_weak');
      assert.equal(body.is_valid, false);
      assert.ok(body.errors.some((e: string) => /too common/.test(e)), JSON.stringify(body.errors));
      assert.ok(body.errors.some((e: string) => /at least 12/.test(e)), JSON.stringify(body.errors));
    });

    it('refuses a long password found on the common-password list, whatever its case', async () => {
      const body = (await strength({ password: 'PASSWORD1234' })).json();
      assert.equal(body.is_valid, false);
      assert.ok(body.errors.some((e: string) => /too common/.test(e)), JSON.stringify(body.errors));
    });

    it('refuses a password containing the email local part given as context', async () => {
      const password = 'zebulonwashere-42';
      const without = (await strength({ password })).json();
      const withEmail = (await strength({ password, email: 'Zebulon@example.com' })).json();
      assert.equal(without.is_valid, true, JSON.stringify(without));
      assert.equal(withEmail.is_valid, false);
      assert.ok(withEmail.errors.some((e: string) => /email address or name/.test(e)));
      assert.ok(withEmail.score <= without.score);
    });

    it('maps every score to its strength label', async () => {
      const labels = ['very_weak', 'weak', 'fair', 'strong', 'very_strong'];
      for (const password of ['aaa', 'monkey12', 'sunflower1984', 'Tr0ub4dor&3', 'correct horse battery staple']) {
        const body = (await strength({ password })).json();
        assert.equal(body.strength, labels[body.score], password);
      }
    });

    it('reports the length rule for a password longer than 128 characters and still scores it', async () => {
      const body = (await strength({ password: 'x7$Q'.repeat(100) })).json();
      assert.equal(body.is_valid, false);
      assert.ok(body.errors.some((e: string) => /at most 128/.test(e)));
      assert.ok(Number.isInteger(body.score));
    });

    it('answers 400 validation when the password is missing, empty or over 1024 characters', async () => {
      assertValidation(await strength({}), 'password');
      assertValidation(await strength({ password: '' }), 'password');
      assertValidation(await strength({ password: 'a'.repeat(1025) }), 'password');
    });

    it('answers 400 validation for an unknown field', async () => {
      assertValidation(await strength({ password: 'correct horse battery staple', username: 'ann' }), 'username');
    });

    it('needs application credentials', async () => {
      assertError(await t.api({ method: 'POST', path: 'password/strength/', appAuth: false, payload: { password: 'x' } }), 401, 'APP_AUTH_REQUIRED');
    });
  });
});
