/**
 * Writes the `user-import` scenario's file: <count> JSON lines as an export from another system would give them,
 * `import-user-N@example.com`, with names, a phone on one line in four, `admin` on one in ten, every fifth email
 * verified, and a password hash in each accepted format in turn (argon2id, argon2i, bcrypt, Django pbkdf2_sha256 and
 * bcrypt_sha256, scrypt) and one line in twelve without a password. One hash per format is made with the real
 * libraries and repeated: the import parses and bounds every hash but never computes one, so their cost is no part of
 * what is measured.
 *
 * Usage: node --import tsx bench/setup/import-file.ts <count> <path>
 */
import { createHash, pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { hash as argon2Hash } from '@node-rs/argon2';
import { hashSync as bcryptHash } from 'bcryptjs';

const [countArg, path] = process.argv.slice(2);
const count = Number(countArg);
if (!Number.isInteger(count) || count < 1 || !path) {
  process.stderr.write('usage: import-file.ts <count> <path>\n');
  process.exit(2);
}

const password = 'bench-import-password';
const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
const djangoSalt = 'Zm9vYmFyYmF6cXV4MTIz';
const scryptSalt = randomBytes(16);
const hashes = [
  await argon2Hash(password, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 }),
  await argon2Hash(password, { algorithm: 1, memoryCost: 4096, timeCost: 3, parallelism: 1 }),
  bcryptHash(password, 10),
  `pbkdf2_sha256$870000$${djangoSalt}$${pbkdf2Sync(password, djangoSalt, 870_000, 32, 'sha256').toString('base64')}`,
  `bcrypt_sha256$${bcryptHash(createHash('sha256').update(password).digest('hex'), 12)}`,
  `$scrypt$ln=16,r=8,p=1$${b64(scryptSalt)}$${b64(scryptSync(password, scryptSalt, 32, { N: 2 ** 16, r: 8, p: 1, maxmem: 96 * 2 ** 20 }))}`,
];

/** A distinct valid New York number per line: the exchange from the ten-thousands, the line number from the rest. */
const phoneOf = (i: number) => `+1 212 ${200 + (Math.floor(i / 10_000) % 800)} ${String(i % 10_000).padStart(4, '0')}`;

const out = createWriteStream(path);
for (let i = 1; i <= count; i++) {
  const line = JSON.stringify({
    email: `import-user-${i}@example.com`,
    first_name: `First${i}`,
    last_name: `Last${i}`,
    ...(i % 4 === 0 ? { phone: phoneOf(i), is_phone_verified: true } : {}),
    is_email_verified: i % 5 === 0,
    ...(i % 10 === 0 ? { roles: ['admin'] } : {}),
    ...(i % 12 === 0 ? {} : { password_hash: hashes[i % hashes.length] }),
  });
  if (!out.write(`${line}\n`)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');
process.stdout.write(`wrote ${count} lines to ${path}\n`);
