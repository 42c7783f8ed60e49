import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidEmail, normalizeEmail, normalizePhone, normalizePhoneParts } from './contact.js';

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    assert.equal(normalizeEmail('  Alice.Smith@Example.COM \n'), 'alice.smith@example.com');
  });
});

describe('isValidEmail', () => {
  for (const email of ['a@b.co', 'alice.smith+tag@example.com', 'x@sub.domain.example']) {
    it(`accepts ${email}`, () => assert.equal(isValidEmail(email), true));
  }
  for (const email of ['', 'plain', 'a@b', 'a@b.c', 'a b@example.com', 'a@@example.com', '@example.com', 'a@example .com']) {
    it(`refuses ${JSON.stringify(email)}`, () => assert.equal(isValidEmail(email), false));
  }
  it('refuses a local part longer than 64 characters', () => {
    assert.equal(isValidEmail(`${'a'.repeat(64)}@example.com`), true);
    assert.equal(isValidEmail(`${'a'.repeat(65)}@example.com`), false);
  });
  it('refuses an address longer than 254 characters', () => {
    const domain = `${'d'.repeat(200)}.example.com`;
    assert.equal(isValidEmail(`${'a'.repeat(41)}@${domain}`), true); // 254
    assert.equal(isValidEmail(`${'a'.repeat(42)}@${domain}`), false); // 255
  });
});

describe('normalizePhone', () => {
  const valid: Array<[string, string]> = [
    ['+1 415 555 2671', '+14155552671'],
    ['+1 (415) 555-2671', '+14155552671'],
    ['+14155552671', '+14155552671'],
    ['  +33 6 12 34 56 78 ', '+33612345678'],
    ['+44 20 7946 0958', '+442079460958'],
  ];
  for (const [input, expected] of valid) {
    it(`normalizes ${JSON.stringify(input)} to ${expected}`, () => assert.equal(normalizePhone(input), expected));
  }
  const invalid: Array<[string, string]> = [
    ['4155552671', 'no leading +'],
    ['+1 415 555 267a', 'a letter'],
    ['+1 415 555 267', 'too few digits'],
    ['+1 415 555 26711', 'too many digits'],
    ['+1 000 000 0000', 'not an assignable number'],
    ['+999 123456789', 'an unknown country code'],
    ['', 'empty'],
    ['+', 'only a plus'],
  ];
  for (const [input, why] of invalid) {
    it(`gives null for ${JSON.stringify(input)} (${why})`, () => assert.equal(normalizePhone(input), null));
  }
});

describe('normalizePhoneParts', () => {
  it('joins a country code and a national number into E.164', () => {
    assert.equal(normalizePhoneParts('+1', '4155552671'), '+14155552671');
    assert.equal(normalizePhoneParts('+33', '612345678'), '+33612345678');
    assert.equal(normalizePhoneParts(' +44 ', ' 2079460958 '), '+442079460958');
  });
  const invalid: Array<[string, string, string]> = [
    ['1', '4155552671', 'a country code without +'],
    ['+12345', '4155552671', 'a country code of 5 digits'],
    ['+1', '41555526', 'a number of 8 digits'],
    ['+1', '4155552671234567', 'a number of 16 digits'],
    ['+1', '415555267a', 'a letter'],
    ['+1', '415 555 2671', 'spaces in the number'],
    ['+1', '0000000000', 'an invalid number'],
  ];
  for (const [cc, number, why] of invalid) {
    it(`gives null for ${cc} ${number} (${why})`, () => assert.equal(normalizePhoneParts(cc, number), null));
  }
});
