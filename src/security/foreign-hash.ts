/**
 * Password hashes made by other systems, as they are imported (`gatehouse users import`): which formats are recognised,
 * and the cost each may ask for. Verification is in foreign-hash-verify.ts; a hash verified once is replaced by argon2id.
 *
 * The bounds matter because the parameters come with the hash: an imported `$scrypt$ln=30…` or `pbkdf2_sha256$4000000000$…`
 * would make every login attempt on that account (and any attacker's) cost minutes of CPU or gigabytes of memory. Lines
 * beyond them are refused at import, and verification refuses them again, whatever reached the database another way.
 */

export type ForeignHashFormat = 'argon2id' | 'argon2i' | 'bcrypt' | 'bcrypt_sha256' | 'pbkdf2_sha256' | 'scrypt';

export const FOREIGN_HASH_FORMATS: readonly ForeignHashFormat[] = ['argon2id', 'argon2i', 'bcrypt', 'bcrypt_sha256', 'pbkdf2_sha256',
  'scrypt'];

/**
 * The most each format may cost. Each is several times what its usual producers use today: argon2 at OWASP's and
 * Keycloak's few MiB up to Ory Kratos' 128 MiB; bcrypt cost 10–13 (Auth0, Django, Laravel, Rails); Django 6.0's
 * 1,200,000 PBKDF2 iterations; passlib's scrypt `ln=16, r=8, p=1` (64 MiB).
 */
export const FOREIGN_HASH_LIMITS = {
  argon2MemoryKiB: 262_144,
  argon2Iterations: 16,
  argon2Parallelism: 16,
  bcryptCost: 14,
  pbkdf2Iterations: 3_000_000,
  /** scrypt memory is 128·N·r bytes. */
  scryptMemoryBytes: 256 * 1024 * 1024,
  /** N·r·p, the count of salsa20/8 block mixes, which is what the time follows. */
  scryptWork: 2 ** 22,
} as const;

export type ParsedForeignHash =
  | { format: 'argon2id' | 'argon2i'; memoryKiB: number; iterations: number; parallelism: number; encoded: string }
  | { format: 'bcrypt' | 'bcrypt_sha256'; cost: number; bcrypt: string }
  | { format: 'pbkdf2_sha256'; iterations: number; salt: string; digest: Buffer }
  | { format: 'scrypt'; n: number; r: number; p: number; salt: Buffer; digest: Buffer };

/** Why a hash is refused: an unknown format, a known one written wrong, or parameters beyond the limits. */
export type ForeignHashProblem = { kind: 'unknown_format' | 'malformed' | 'too_costly'; message: string };

export type ForeignHashParse = { ok: true; hash: ParsedForeignHash } | { ok: false; problem: ForeignHashProblem };

const B64 = '[A-Za-z0-9+/]';
const ARGON2_RE = new RegExp('^\\$(argon2id|argon2i)\\$(?:v=(?:16|19)\\$)?m=(\\d{1,10}),t=(\\d{1,10}),p=(\\d{1,3})'
  + `\\$${B64}{11,}\\$${B64}{16,}$`);
const BCRYPT_RE = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const PBKDF2_RE = new RegExp(`^pbkdf2_sha256\\$(\\d{1,10})\\$([^$]{1,128})\\$(${B64}{43}=)$`);
const SCRYPT_RE = new RegExp(`^\\$scrypt\\$ln=(\\d{1,2}),r=(\\d{1,5}),p=(\\d{1,5})\\$(${B64}{0,128})\\$(${B64}{22,172})$`);

const ok = (hash: ParsedForeignHash): ForeignHashParse => ({ ok: true, hash });
const refuse = (kind: ForeignHashProblem['kind'], message: string): ForeignHashParse => ({ ok: false, problem: { kind, message } });
/** Messages name the format and the offending parameter, never the salt or the digest. */
const tooCostly = (what: string, limit: number | string) => refuse('too_costly', `${what} exceeds the limit of ${limit}`);

function parseArgon2(encoded: string): ForeignHashParse {
  const m = ARGON2_RE.exec(encoded);
  if (!m) return refuse('malformed', 'not a valid argon2 PHC string ($argon2id$v=19$m=…,t=…,p=…$salt$hash)');
  const [memoryKiB, iterations, parallelism] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const limits = FOREIGN_HASH_LIMITS;
  if (memoryKiB > limits.argon2MemoryKiB) return tooCostly(`argon2 memory m=${memoryKiB} KiB`, limits.argon2MemoryKiB);
  if (iterations > limits.argon2Iterations) return tooCostly(`argon2 t=${iterations}`, limits.argon2Iterations);
  if (parallelism > limits.argon2Parallelism) return tooCostly(`argon2 p=${parallelism}`, limits.argon2Parallelism);
  if (iterations < 1 || parallelism < 1 || memoryKiB < 8 * parallelism) return refuse('malformed', 'argon2 parameters out of range');
  return ok({ format: m[1] as 'argon2id' | 'argon2i', memoryKiB, iterations, parallelism, encoded });
}

function parseBcrypt(bcrypt: string, format: 'bcrypt' | 'bcrypt_sha256'): ForeignHashParse {
  const m = BCRYPT_RE.exec(bcrypt);
  if (!m) return refuse('malformed', `not a valid ${format} hash ($2b$<cost>$<53 characters>)`);
  const cost = Number(m[1]);
  if (cost < 4) return refuse('malformed', `bcrypt cost ${cost} is below 4`);
  if (cost > FOREIGN_HASH_LIMITS.bcryptCost) return tooCostly(`bcrypt cost ${cost}`, FOREIGN_HASH_LIMITS.bcryptCost);
  return ok({ format, cost, bcrypt });
}

/** Django's `pbkdf2_sha256$<iterations>$<salt>$<base64 digest>`: the salt is used as text, the digest is 32 bytes. */
function parsePbkdf2(encoded: string): ForeignHashParse {
  const m = PBKDF2_RE.exec(encoded);
  if (!m) return refuse('malformed', 'not a valid Django pbkdf2_sha256 hash (pbkdf2_sha256$<iterations>$<salt>$<base64 digest>)');
  const iterations = Number(m[1]);
  if (iterations < 1) return refuse('malformed', 'pbkdf2_sha256 iterations must be at least 1');
  if (iterations > FOREIGN_HASH_LIMITS.pbkdf2Iterations) {
    return tooCostly(`pbkdf2_sha256 iterations ${iterations}`, FOREIGN_HASH_LIMITS.pbkdf2Iterations);
  }
  return ok({ format: 'pbkdf2_sha256', iterations, salt: m[2]!, digest: Buffer.from(m[3]!, 'base64') });
}

/**
 * passlib's PHC form, also written by OpenStack Keystone, RustCrypto's `scrypt` and deno's `scrypt` (phc):
 * `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<key>`, salt and key in standard base64 without padding. The salt's decoded
 * bytes are the scrypt salt, and the key's decoded length is the derived length.
 */
function parseScrypt(encoded: string): ForeignHashParse {
  const m = SCRYPT_RE.exec(encoded);
  if (!m) return refuse('malformed', 'not a valid scrypt PHC string ($scrypt$ln=…,r=…,p=…$salt$hash)');
  const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (ln < 1 || r < 1 || p < 1) return refuse('malformed', 'scrypt parameters must be at least 1');
  const memory = 128 * 2 ** ln * r;
  if (memory > FOREIGN_HASH_LIMITS.scryptMemoryBytes) return tooCostly(`scrypt memory 128·N·r (ln=${ln}, r=${r})`, '256 MiB');
  if (2 ** ln * r * p > FOREIGN_HASH_LIMITS.scryptWork) return tooCostly(`scrypt work N·r·p (ln=${ln}, r=${r}, p=${p})`, '2^22');
  const digest = Buffer.from(m[5]!, 'base64');
  if (digest.length < 16 || digest.length > 128) return refuse('malformed', 'scrypt key must be 16 to 128 bytes');
  return ok({ format: 'scrypt', n: 2 ** ln, r, p, salt: Buffer.from(m[4]!, 'base64'), digest });
}

/** Recognises, checks and bounds a hash from another system. */
export function parseForeignHash(encoded: string): ForeignHashParse {
  if (encoded.startsWith('$argon2id$') || encoded.startsWith('$argon2i$')) return parseArgon2(encoded);
  if (/^\$2[aby]\$/.test(encoded)) return parseBcrypt(encoded, 'bcrypt');
  if (encoded.startsWith('bcrypt_sha256$')) return parseBcrypt(encoded.slice('bcrypt_sha256$'.length), 'bcrypt_sha256');
  if (encoded.startsWith('pbkdf2_sha256$')) return parsePbkdf2(encoded);
  if (encoded.startsWith('$scrypt$')) return parseScrypt(encoded);
  return refuse('unknown_format', `unknown password hash format (accepted: ${FOREIGN_HASH_FORMATS.join(', ')})`);
}
