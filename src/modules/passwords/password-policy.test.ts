import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkContextWords, checkPasswordPolicy, checkPasswordRules, contextWords, passwordLength, type PolicyConfig } from './password-policy.js';

const LENGTH_ONLY: PolicyConfig = {
  PASSWORD_MIN_LENGTH: 8,
  PASSWORD_MAX_LENGTH: 16,
  PASSWORD_REQUIRE_UPPERCASE: false,
  PASSWORD_REQUIRE_LOWERCASE: false,
  PASSWORD_REQUIRE_NUMBERS: false,
  PASSWORD_REQUIRE_SPECIAL: false,
};

describe('passwordLength', () => {
  it('counts an emoji as one character', () => {
    const emoji = '😀'.repeat(8);
    assert.equal(emoji.length, 16, 'UTF-16 code units');
    assert.equal(passwordLength(emoji), 8);
  });

  it('counts a decomposed accent as one character after NFKC', () => {
    assert.equal('cafe\u0301'.length, 5);
    assert.equal(passwordLength('cafe\u0301'), 4);
    assert.equal(passwordLength('café'), 4);
  });

  it('counts compatibility characters as their NFKC form', () => {
    assert.equal(passwordLength('ﬁ'), 2); // the ligature becomes "fi"
    assert.equal(passwordLength('Ａ'), 1); // full-width A becomes A
  });
});

describe('checkPasswordRules: length', () => {
  it('accepts a password within the bounds', () => {
    assert.deepEqual(checkPasswordRules('abcdefgh', LENGTH_ONLY), []);
    assert.deepEqual(checkPasswordRules('a'.repeat(16), LENGTH_ONLY), []);
  });

  it('refuses a password below the minimum', () => {
    assert.deepEqual(checkPasswordRules('abcdefg', LENGTH_ONLY), ['Password must be at least 8 characters long.']);
  });

  it('refuses a password above the maximum', () => {
    assert.deepEqual(checkPasswordRules('a'.repeat(17), LENGTH_ONLY), ['Password must be at most 16 characters long.']);
  });

  it('measures in code points: 8 emoji meet a minimum of 8, 9 emoji exceed a maximum of 8', () => {
    const policy = { ...LENGTH_ONLY, PASSWORD_MAX_LENGTH: 8 };
    assert.deepEqual(checkPasswordRules('😀'.repeat(8), policy), []);
    assert.deepEqual(checkPasswordRules('😀'.repeat(9), policy), ['Password must be at most 8 characters long.']);
  });

  it('measures after NFKC: seven letters with a decomposed accent are seven characters', () => {
    assert.deepEqual(checkPasswordRules('abcdefe\u0301', LENGTH_ONLY), ['Password must be at least 8 characters long.']);
  });
});

describe('checkPasswordRules: composition', () => {
  const rules: Array<{ key: keyof PolicyConfig; lacking: string; meeting: string; message: string }> = [
    { key: 'PASSWORD_REQUIRE_UPPERCASE', lacking: 'lowercase1!', meeting: 'lowerCase1!', message: 'Password must contain an upper-case letter.' },
    { key: 'PASSWORD_REQUIRE_LOWERCASE', lacking: 'UPPERCASE1!', meeting: 'UPPERCASe1!', message: 'Password must contain a lower-case letter.' },
    { key: 'PASSWORD_REQUIRE_NUMBERS', lacking: 'NoDigitsHere!', meeting: 'OneDigit1Here!', message: 'Password must contain a digit.' },
    { key: 'PASSWORD_REQUIRE_SPECIAL', lacking: 'NoSymbols123', meeting: 'OneSymbol#123', message: 'Password must contain a symbol.' },
  ];

  for (const { key, lacking, meeting, message } of rules) {
    it(`${key} on refuses ${JSON.stringify(lacking)} and accepts ${JSON.stringify(meeting)}`, () => {
      const policy = { ...LENGTH_ONLY, [key]: true };
      assert.deepEqual(checkPasswordRules(lacking, policy), [message]);
      assert.deepEqual(checkPasswordRules(meeting, policy), []);
    });

    it(`${key} off accepts ${JSON.stringify(lacking)}`, () => {
      assert.deepEqual(checkPasswordRules(lacking, { ...LENGTH_ONLY, [key]: false }), []);
    });
  }

  it('recognizes letters and digits beyond ASCII', () => {
    const all = { ...LENGTH_ONLY, PASSWORD_REQUIRE_UPPERCASE: true, PASSWORD_REQUIRE_LOWERCASE: true, PASSWORD_REQUIRE_NUMBERS: true };
    assert.deepEqual(checkPasswordRules('Élan-ñandú-٣', all), []); // É upper, ñ lower, ٣ an Arabic-Indic digit
  });

  it('reports every problem at once, length first', () => {
    const all = { ...LENGTH_ONLY, PASSWORD_REQUIRE_UPPERCASE: true, PASSWORD_REQUIRE_LOWERCASE: true,
      PASSWORD_REQUIRE_NUMBERS: true, PASSWORD_REQUIRE_SPECIAL: true };
    assert.deepEqual(checkPasswordRules('abc', all), [
      'Password must be at least 8 characters long.',
      'Password must contain an upper-case letter.',
      'Password must contain a digit.',
      'Password must contain a symbol.',
    ]);
  });
});

describe('contextWords and checkContextWords', () => {
  it('takes the email local part whole and split, and the names, lower-cased', () => {
    assert.deepEqual(contextWords({ email: 'Anna.Leek-Smith@example.com', first_name: 'Anna', last_name: 'Leek-Smith' }).sort(),
      ['anna', 'anna.leek-smith', 'leek', 'leek-smith', 'smith'].sort());
  });

  // see: issue 12 — "reg" from "reg-1a2b@…" refused about one random 20-character password in two thousand.
  it('ignores words shorter than 4 characters, whole or split, and missing values', () => {
    assert.deepEqual(contextWords({ email: 'jo@example.com', first_name: null }), []);
    assert.deepEqual(contextWords({ email: 'reg-1a2b3c@example.com', first_name: 'Ann', last_name: 'Lee' }).sort(),
      ['1a2b3c', 'reg-1a2b3c']);
    const words = contextWords({ email: 'reg-1a2b3c@example.com' });
    assert.deepEqual(checkContextWords('xqREGv9m2kLp0wzt7Hn4', words), []);
    assert.equal(checkContextWords('my-reg-1a2b3c-secret', words).length, 1);
  });

  it('refuses a password containing a context word in any case', () => {
    const words = contextWords({ email: 'zebulon@example.com' });
    assert.equal(checkContextWords('My-ZEBULON-pass', words).length, 1);
    assert.deepEqual(checkContextWords('unrelated words here', words), []);
  });
});

describe('checkPasswordPolicy', () => {
  it('adds the common-password problem to the rule problems', () => {
    const isCommon = (p: string) => p === 'password1234';
    assert.deepEqual(checkPasswordPolicy('Password1234', LENGTH_ONLY, {}, isCommon), ['This password is too common.']);
    assert.deepEqual(checkPasswordPolicy('ok-long-enough', LENGTH_ONLY, {}, isCommon), []);
  });
});
