import { Type } from 'typebox';

/** A public key as RFC 7517 lists it. The allow-list of what leaves: no private member (`d`, `p`, `q`…) can. */
export const PublicJwk = Type.Object({
  kty: Type.String(),
  kid: Type.String(),
  alg: Type.String(),
  use: Type.String(),
  crv: Type.Optional(Type.String()),
  x: Type.Optional(Type.String()),
  y: Type.Optional(Type.String()),
  n: Type.Optional(Type.String()),
  e: Type.Optional(Type.String()),
});

export const JwksResponse = Type.Object({ keys: Type.Array(PublicJwk) }, {
  description: 'The keys that verify access tokens (the signing key first, then those still verifying), then the OpenID '
    + 'Provider\'s own keys once it has some. Empty with HS256 alone.',
});

export const DiscoveryResponse = Type.Object({
  issuer: Type.String(),
  jwks_uri: Type.String(),
  id_token_signing_alg_values_supported: Type.Array(Type.String()),
}, { description: 'OpenID-style metadata for resource servers; Gatehouse issues access tokens only (docs/resource-servers.md).' });
