import { createHash, pbkdf2, randomBytes, scrypt } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hash as argon2Hash } from '@node-rs/argon2';
import { hash as bcryptHash } from 'bcryptjs';

/**
 * Password hashes as other systems write them, made here with the real libraries: @node-rs/argon2 for argon2id and
 * argon2i, bcryptjs for bcrypt, node's crypto for Django's PBKDF2 and for scrypt, in the formats of
 * docs/importing-users.md "Password hash formats".
 */

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify(scrypt) as (p: string, s: Buffer, n: number, o: object) => Promise<Buffer>;
const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');

export type FormatName = 'argon2id' | 'argon2i' | 'bcrypt-2a' | 'bcrypt-2b' | 'bcrypt-2y' | 'django-pbkdf2_sha256'
  | 'django-bcrypt_sha256' | 'scrypt';

/** Small costs: the tests check formats, not strength. */
export async function foreignHash(format: FormatName, password: string): Promise<string> {
  switch (format) {
    case 'argon2id':
      return argon2Hash(password, { algorithm: 2, memoryCost: 1024, timeCost: 2, parallelism: 1 });
    case 'argon2i':
      return argon2Hash(password, { algorithm: 1, memoryCost: 1024, timeCost: 2, parallelism: 1 });
    case 'bcrypt-2a':
      return (await bcryptHash(password, 4)).replace(/^\$2b\$/, '$2a$');
    case 'bcrypt-2b':
      return bcryptHash(password, 5);
    case 'bcrypt-2y':
      // PHP's password_hash() writes $2y$; the algorithm is the same.
      return (await bcryptHash(password, 4)).replace(/^\$2b\$/, '$2y$');
    case 'django-pbkdf2_sha256': {
      // Django: pbkdf2_sha256$<iterations>$<salt>$<base64 of the 32-byte PBKDF2-HMAC-SHA256 of the password>
      const salt = randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 22);
      const digest = await pbkdf2Async(password, salt, 10_000, 32, 'sha256');
      return `pbkdf2_sha256$10000$${salt}$${digest.toString('base64')}`;
    }
    case 'django-bcrypt_sha256':
      // Django's BCryptSHA256PasswordHasher: bcrypt of the hex SHA-256 of the password, prefixed with its name.
      return `bcrypt_sha256$${await bcryptHash(createHash('sha256').update(password).digest('hex'), 4)}`;
    case 'scrypt': {
      // passlib's PHC string: $scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<key>, base64 without padding.
      const salt = randomBytes(16);
      const key = await scryptAsync(password, salt, 32, { N: 2 ** 12, r: 8, p: 1 });
      return `$scrypt$ln=12,r=8,p=1$${b64(salt)}$${b64(key)}`;
    }
  }
}

export const FORMATS: FormatName[] = ['argon2id', 'argon2i', 'bcrypt-2a', 'bcrypt-2b', 'bcrypt-2y', 'django-pbkdf2_sha256',
  'django-bcrypt_sha256', 'scrypt'];

/** The secret parts of a hash (salt and digest): none may appear in any output. */
export function secretPartsOf(hash: string): string[] {
  const parts = hash.split('$').filter((p) => p.length >= 16);
  // bcrypt keeps salt and digest in one 53-character field: look for its salt and digest halves too.
  return parts.flatMap((p) => (p.length === 53 ? [p, p.slice(0, 22), p.slice(22)] : [p]));
}

/** Writes `lines` (objects are JSON-encoded, strings written as they are) to a new file and answers its path. */
export async function writeImportFile(name: string, lines: Array<object | string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-import-'));
  const path = join(dir, name);
  await writeFile(path, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return path;
}
