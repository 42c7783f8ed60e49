import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  base32Decode, base32Encode, hotp, matchTotpStep, newTotpSecret, provisioningUri, timeStep, totpAt,
} from './totp.js';

// RFC 6238 Appendix B, SHA-1 rows: the shared secret is the ASCII string "12345678901234567890". The RFC gives
// 8-digit codes; a 6-digit code is the same value modulo 10^6, i.e. its last six digits.
const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');
const RFC_VECTORS: [seconds: number, code8: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('RFC 6238 TOTP (HMAC-SHA1)', () => {
  for (const [seconds, code8] of RFC_VECTORS) {
    it(`gives ${code8.slice(-6)} at T=${seconds}`, () => {
      assert.equal(totpAt(RFC_SECRET, timeStep(new Date(seconds * 1000))), code8.slice(-6));
    });
    it(`gives the RFC's 8-digit ${code8} at T=${seconds}`, () => {
      assert.equal(hotp(RFC_SECRET, timeStep(new Date(seconds * 1000)), 8), code8);
    });
  }

  it('matches RFC 4226 Appendix D HOTP values', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expected.forEach((code, counter) => assert.equal(hotp(RFC_SECRET, counter), code));
  });
});

describe('matchTotpStep', () => {
  const now = new Date(1111111111 * 1000);
  const step = timeStep(now);

  it('answers the step of a current code', () => {
    assert.equal(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, step), now, 1), step);
  });

  it('accepts the neighbouring steps within the window and refuses those beyond it', () => {
    assert.equal(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, step - 1), now, 1), step - 1);
    assert.equal(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, step + 1), now, 1), step + 1);
    assert.equal(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, step - 2), now, 1), null);
    assert.equal(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, step - 2), now, 2), step - 2);
    assert.equal(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, step - 1), now, 0), null);
  });

  it('refuses anything that is not six digits', () => {
    for (const code of ['', '12345', '1234567', 'abcdef', ' 050471', '05047a']) {
      assert.equal(matchTotpStep(RFC_SECRET, code, now, 1), null, code);
    }
  });
});

describe('base32', () => {
  it('matches the RFC 4648 §10 vectors (without padding)', () => {
    const vectors: [string, string][] = [['', ''], ['f', 'MY'], ['fo', 'MZXQ'], ['foo', 'MZXW6'], ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'], ['foobar', 'MZXW6YTBOI']];
    for (const [plain, encoded] of vectors) {
      assert.equal(base32Encode(Buffer.from(plain)), encoded);
      assert.equal(base32Decode(encoded).toString(), plain);
    }
  });

  it('decodes lower case, spaces and padding, and refuses other characters', () => {
    assert.equal(base32Decode('mzxw 6ytb oi======').toString(), 'foobar');
    assert.throws(() => base32Decode('MZXW1'), RangeError);
  });

  it('round-trips a fresh 160-bit secret (32 characters)', () => {
    const secret = newTotpSecret();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.equal(base32Decode(secret).length, 20);
    assert.equal(base32Encode(base32Decode(secret)), secret);
    assert.notEqual(newTotpSecret(), secret);
  });
});

describe('provisioningUri', () => {
  it('builds the otpauth:// key URI with issuer, algorithm, digits and period', () => {
    assert.equal(provisioningUri({ issuer: 'Acme Co', account: 'ann@example.com', secret: 'JBSWY3DPEHPK3PXP' }),
      'otpauth://totp/Acme%20Co:ann%40example.com?issuer=Acme%20Co&secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30');
  });
});
