import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AVATAR_NAME_RE, detectAvatarImage } from './avatar-image.js';

const bytes = (...parts: Array<number[] | string>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('detectAvatarImage', () => {
  it('recognises PNG, JPEG and WebP by their first bytes', () => {
    assert.deepEqual(detectAvatarImage(bytes([0x89], 'PNG\r\n\x1a\n', 'IHDR')), { contentType: 'image/png', ext: 'png' });
    assert.deepEqual(detectAvatarImage(bytes([0xff, 0xd8, 0xff, 0xe0])), { contentType: 'image/jpeg', ext: 'jpg' });
    assert.deepEqual(detectAvatarImage(bytes('RIFF', [0x1a, 0, 0, 0], 'WEBPVP8L')), { contentType: 'image/webp', ext: 'webp' });
  });

  it('refuses anything else, a truncated signature included', () => {
    for (const b of [bytes(''), bytes('hello'), bytes([0x89], 'PNG\r\n'), bytes([0xff, 0xd8]), bytes('RIFF', [0, 0, 0, 0], 'WAVE'),
      bytes('GIF89a'), bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), bytes('RIFF', [0, 0, 0, 0], 'WEB')]) {
      assert.equal(detectAvatarImage(b), null, b.toString('latin1'));
    }
  });
});

describe('AVATAR_NAME_RE', () => {
  it('admits only 32 lower-case hex digits and a served extension', () => {
    assert.ok(AVATAR_NAME_RE.test(`${'a1'.repeat(16)}.webp`));
    for (const name of [`${'A'.repeat(32)}.png`, `${'a'.repeat(31)}.png`, `${'a'.repeat(32)}.svg`, `${'a'.repeat(32)}.png.png`,
      `../${'a'.repeat(29)}.png`, `${'a'.repeat(32)}.png\n`]) {
      assert.equal(AVATAR_NAME_RE.test(name), false, name);
    }
  });
});
