import { namesKey, type JwtAlgorithm, type JwtKey, type KeyChoice } from '../../security/jwt.js';
import type { PrivateJwk, PublishedJwk } from '../../security/signing-keys.js';

export type KeyState = 'active' | 'verifying' | 'retired';
/** Where a key comes from: `SVC_JWT_SECRET_KEY` (HS256), `SVC_JWT_PRIVATE_KEY`, or generated and stored in the database. */
export type KeySource = 'secret' | 'environment' | 'database';

export interface RingEntry {
  key: JwtKey;
  source: KeySource;
  /** Null for the HMAC secret, which is never published. */
  published: PublishedJwk | null;
  createdAt: Date | null;
  activatedAt: Date | null;
  supersededAt: Date | null;
  verifiesUntil: Date | null;
  /**
   * The private key as a JWK, for the OpenID Provider's key set: computed only when asked, null when the stored private
   * part cannot be opened. Absent for the HMAC secret.
   */
  privateJwk?: () => PrivateJwk | null;
}

/** What one instance signs and verifies with, as loaded; states are computed against the clock at each use. */
export interface Keyring {
  signing: JwtKey;
  entries: ReadonlyMap<string, RingEntry>;
  /** The stored keys' version this ring was built from (`keysVersion`), to notice a change. */
  version: string;
}

export const singleKeyRing = (entry: RingEntry, version: string): Keyring =>
  ({ signing: entry.key, entries: new Map([[entry.key.kid, entry]]), version });

/** Signing; superseded and still verifying the tokens it signed; retired once those have all expired. */
export function stateOf(entry: Pick<RingEntry, 'supersededAt' | 'verifiesUntil'>, now: Date): KeyState {
  if (entry.supersededAt === null) return 'active';
  return entry.verifiesUntil !== null && entry.verifiesUntil > now ? 'verifying' : 'retired';
}

/** The key a token's `kid` names, if the ring holds it. */
export function choose(ring: Keyring, kid: string | undefined, now: Date): KeyChoice | undefined {
  if (kid === undefined) return namesKey(ring.signing, kid) ? { key: ring.signing, retired: false } : undefined;
  const entry = ring.entries.get(kid);
  return entry && { key: entry.key, retired: stateOf(entry, now) === 'retired' };
}

/** The signing key first, then the ones still verifying, newest first; never a retired key, never the HMAC secret. */
export function publishedKeys(ring: Keyring, now: Date): PublishedJwk[] {
  return [...ring.entries.values()].reverse() // entries are oldest first
    .filter((e) => e.published !== null && stateOf(e, now) !== 'retired')
    .sort((a, b) => Number(b.key === ring.signing) - Number(a.key === ring.signing))
    .map((e) => e.published!);
}

/** The algorithms tokens being verified were signed with: the signing key's first. */
export function algorithmsInUse(ring: Keyring, now: Date): JwtAlgorithm[] {
  const verifying = [...ring.entries.values()].reverse().filter((e) => stateOf(e, now) !== 'retired');
  return [...new Set([ring.signing.alg, ...verifying.map((e) => e.key.alg)])];
}
