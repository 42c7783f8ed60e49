import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactUrl } from './logging.js';

const query = (url: string) => new URLSearchParams(url.slice(url.indexOf('?') + 1));

describe('redactUrl', () => {
  for (const name of ['token', 'code', 'code_verifier', 'state', 'access_token', 'refresh_token', 'password']) {
    it(`masks the value of ${name}`, () => {
      const out = redactUrl(`/api/v1/auth/verify/?${name}=Sup3rSecretValue&page=2`);
      assert.ok(!out.includes('Sup3rSecretValue'), out);
      assert.equal(query(out).get(name), '[redacted]');
      assert.equal(query(out).get('page'), '2');
    });
  }

  it('masks regardless of the parameter name case', () => {
    const out = redactUrl('/x/?Token=Sup3rSecretValue');
    assert.ok(!out.includes('Sup3rSecretValue'), out);
  });

  it('masks every occurrence of a repeated parameter', () => {
    const out = redactUrl('/x/?code=first-secret&code=second-secret');
    assert.ok(!out.includes('first-secret') && !out.includes('second-secret'), out);
  });

  it('keeps the path and the other parameters', () => {
    const out = redactUrl('/api/v1/auth/users/?search=a%20b&token=t0k3n&page_size=10');
    assert.ok(out.startsWith('/api/v1/auth/users/?'), out);
    assert.equal(query(out).get('search'), 'a b');
    assert.equal(query(out).get('page_size'), '10');
  });

  it('leaves a URL without secret parameters unchanged', () => {
    assert.equal(redactUrl('/api/v1/auth/users/?page=2&page_size=10'), '/api/v1/auth/users/?page=2&page_size=10');
  });

  it('leaves a URL without a query intact', () => {
    assert.equal(redactUrl('/api/v1/auth/login/'), '/api/v1/auth/login/');
    assert.equal(redactUrl('/health/live'), '/health/live');
  });

  it('does not mask a parameter whose name only contains a secret word', () => {
    assert.equal(query(redactUrl('/x/?country_code=FR')).get('country_code'), 'FR');
  });
});
