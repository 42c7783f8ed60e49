import assert from 'node:assert/strict';
import { createHash, pbkdf2Sync, scryptSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { hash as argon2Hash } from '@node-rs/argon2';
import { hashSync as bcryptHash } from 'bcryptjs';
import { createForeignHashVerifier } from './foreign-hash-verify.js';
import { parseForeignHash } from './foreign-hash.js';

const verifier = createForeignHashVerifier(2);
const PASSWORD = 'correct horse';

/** Django's PBKDF2PasswordHasher construction: the salt as text, the 32-byte digest in base64. */
const djangoPbkdf2 = (password: string, salt: string, iterations: number) =>
  `pbkdf2_sha256$${iterations}$${salt}$${pbkdf2Sync(password, salt, iterations, 32, 'sha256').toString('base64')}`;

describe('foreign password hashes', () => {
  it('recognises each accepted format with its parameters', async () => {
    const argon = await argon2Hash(PASSWORD, { algorithm: 1, memoryCost: 512, timeCost: 2, parallelism: 1 });
    assert.deepEqual(parseForeignHash(argon).ok && parseForeignHash(argon), { ok: true, hash: {
      format: 'argon2i', memoryKiB: 512, iterations: 2, parallelism: 1, encoded: argon } });
    const bcrypt = bcryptHash(PASSWORD, 4);
    assert.equal((parseForeignHash(bcrypt) as { hash: { cost: number } }).hash.cost, 4);
    assert.equal((parseForeignHash(`bcrypt_sha256$${bcrypt}`) as { hash: { format: string } }).hash.format, 'bcrypt_sha256');
    const pbkdf2 = parseForeignHash(djangoPbkdf2(PASSWORD, 'seasalt', 1000));
    assert.equal(pbkdf2.ok && pbkdf2.hash.format === 'pbkdf2_sha256' && pbkdf2.hash.iterations, 1000);
    const scrypt = parseForeignHash('$scrypt$ln=4,r=8,p=1$c2FsdHNhbHQ$' + 'A'.repeat(43));
    assert.equal(scrypt.ok && scrypt.hash.format === 'scrypt' && scrypt.hash.n, 16);
  });

  it('refuses unknown formats, malformed hashes and parameters beyond the bounds, quoting neither salt nor digest', () => {
    const cases: Array<[string, string]> = [
      ['md5$salt$0123456789abcdef0123456789abcdef', 'unknown_format'],
      ['{SSHA}abcdefghijklmnop', 'unknown_format'],
      ['$argon2d$v=19$m=512,t=2,p=1$c2FsdHNhbHQ$' + 'A'.repeat(43), 'unknown_format'],
      ['$2b$10$tooShort', 'malformed'],
      ['pbkdf2_sha256$1000$salt$notbase64!', 'malformed'],
      ['$2b$31$' + 'a'.repeat(53), 'too_costly'],
      ['pbkdf2_sha256$4000000000$salt$' + 'A'.repeat(43) + '=', 'too_costly'],
      ['$scrypt$ln=30,r=8,p=1$c2FsdHNhbHQ$' + 'A'.repeat(43), 'too_costly'],
      ['$scrypt$ln=16,r=8,p=64$c2FsdHNhbHQ$' + 'A'.repeat(43), 'too_costly'],
      ['$argon2id$v=19$m=4194304,t=2,p=1$c2FsdHNhbHQ$' + 'A'.repeat(43), 'too_costly'],
    ];
    for (const [encoded, kind] of cases) {
      const parsed = parseForeignHash(encoded);
      assert.equal(parsed.ok ? 'ok' : parsed.problem.kind, kind, encoded);
      if (!parsed.ok) assert.ok(!parsed.problem.message.includes('c2FsdHNhbHQ') && !parsed.problem.message.includes('AAAAAAAA'));
    }
  });

  it('verifies the right password and refuses a wrong one in every format', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const key = scryptSync(PASSWORD, salt, 32, { N: 1024, r: 8, p: 1 });
    const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
    const hashes = [
      await argon2Hash(PASSWORD, { algorithm: 2, memoryCost: 512, timeCost: 2, parallelism: 1 }),
      await argon2Hash(PASSWORD, { algorithm: 1, memoryCost: 512, timeCost: 2, parallelism: 1 }),
      bcryptHash(PASSWORD, 4).replace('$2b$', '$2a$'),
      bcryptHash(PASSWORD, 4).replace('$2b$', '$2y$'),
      `bcrypt_sha256$${bcryptHash(createHash('sha256').update(PASSWORD).digest('hex'), 4)}`,
      djangoPbkdf2(PASSWORD, 'seasalt', 1000),
      `$scrypt$ln=10,r=8,p=1$${b64(salt)}$${b64(key)}`,
    ];
    for (const h of hashes) {
      assert.equal(await verifier.verify(h, PASSWORD), true, h);
      assert.equal(await verifier.verify(h, 'correct horsf'), false, h);
    }
  });

  it('never computes a hash beyond the bounds, even when it is correct', async () => {
    const salt = 'seasalt';
    // 3,000,001 iterations: one over the bound. Refused without the (seconds-long) derivation.
    const started = performance.now();
    const encoded = `pbkdf2_sha256$3000001$${salt}$${'A'.repeat(43)}=`;
    assert.equal(await verifier.verify(encoded, PASSWORD), false);
    assert.ok(performance.now() - started < 100);
  });
});
