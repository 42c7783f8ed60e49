import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roleCodeFromName } from './role-code.js';

describe('roleCodeFromName', () => {
  it('lower-cases, turns each run of non-alphanumerics into one _ and trims _ from both ends', () => {
    assert.equal(roleCodeFromName('Support Agent'), 'support_agent');
    assert.equal(roleCodeFromName('  Sales -- EU / North '), 'sales_eu_north');
    assert.equal(roleCodeFromName('_admin_'), 'admin');
    assert.equal(roleCodeFromName('Tier 2'), 'tier_2');
    assert.equal(roleCodeFromName('billing.read'), 'billing_read');
  });

  it('drops accents instead of the accented letters', () => {
    assert.equal(roleCodeFromName('Éditeur Réseau'), 'editeur_reseau');
  });

  it('answers null when no letter or digit is left, or when the code would exceed 100 characters', () => {
    for (const name of ['---', '  ', '日本語', '🙂']) assert.equal(roleCodeFromName(name), null, name);
    assert.equal(roleCodeFromName('a'.repeat(100)), 'a'.repeat(100));
    assert.equal(roleCodeFromName('a'.repeat(101)), null);
  });
});
