import { createHash } from 'node:crypto';
import type { PrivateJwk } from '../../security/signing-keys.js';
import { stateOf, type Keyring, type RingEntry } from './keyring.js';

/** The private keys the OpenID Provider signs and verifies with, and what changes whenever one of them does. */
export interface ProviderKeys {
  version: string;
  keys: PrivateJwk[];
}

/** A ring's signing key first, then the keys still verifying, newest first; never a retired key. */
function inOrder(ring: Keyring, now: Date): RingEntry[] {
  return [...ring.entries.values()].reverse() // entries are oldest first
    .filter((e) => stateOf(e, now) !== 'retired')
    .sort((a, b) => Number(b.key === ring.signing) - Number(a.key === ring.signing));
}

/**
 * The provider's key set (docs/resource-servers.md "The OpenID Provider's keys"): the rings in the order given — the
 * OpenID set first, whose signing key is RS256 — each signing key before its older keys. oidc-provider signs with the
 * first key of an algorithm, so the RS256 signer leads. The HMAC secret has no private JWK and is left out, and so is a
 * key whose private part cannot be opened (the provider takes private keys only); a kid appears once.
 */
export function providerKeysOf(rings: readonly Keyring[], now: Date): ProviderKeys {
  const keys: PrivateJwk[] = [];
  const seen = new Set<string>();
  for (const ring of rings) {
    for (const entry of inOrder(ring, now)) {
      const jwk = entry.privateJwk?.();
      if (!jwk || seen.has(jwk.kid)) continue;
      seen.add(jwk.kid);
      keys.push({ ...jwk }); // a copy: the caller may change what it is given
    }
  }
  // A kid is the key's thumbprint: the same kids in the same order are the same keys.
  const version = createHash('sha256').update(keys.map((k) => k.kid).join(' ')).digest('base64url').slice(0, 22);
  return { version, keys };
}
