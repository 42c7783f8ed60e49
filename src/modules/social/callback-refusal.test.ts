import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_DESCRIPTION_LENGTH, MAX_ERROR_LENGTH, providerRefusal } from './callback-refusal.js';

describe('providerRefusal', () => {
  it('keeps error and error_description, nothing else', () => {
    assert.deepEqual(providerRefusal({ error: 'access_denied', error_description: 'The user refused access.' }),
      { error: 'access_denied', error_description: 'The user refused access.' });
    assert.deepEqual(providerRefusal({ error: 'access_denied' }), { error: 'access_denied' });
    assert.deepEqual(providerRefusal({ error: 'access_denied', error_description: '  ' }), { error: 'access_denied' });
  });

  it('is none without an error; any error is one, even one left blank by the filtering', () => {
    assert.equal(providerRefusal({}), undefined);
    assert.equal(providerRefusal({ error: '', error_description: 'text' }), undefined);
    assert.deepEqual(providerRefusal({ error: '\u0000\n', error_description: 'text' }), { error: '', error_description: 'text' });
  });

  it('cuts each value short and drops characters outside printable ASCII', () => {
    const refusal = providerRefusal({ error: 'e'.repeat(300), error_description: `a\r\nb\u0007c ${'d'.repeat(500)}` })!;
    assert.equal(refusal.error.length, MAX_ERROR_LENGTH);
    assert.equal(refusal.error_description!.length, MAX_DESCRIPTION_LENGTH);
    assert.ok(refusal.error_description!.startsWith('abc d'));
    assert.deepEqual(providerRefusal({ error: 'denied\u202e', error_description: 'caf\u00e9 <b>' }), { error: 'denied', error_description: 'caf <b>' });
  });
});
