/**
 * @simplewebauthn/server and the ASN.1 and WebCrypto libraries under it are loaded on the first passkey ceremony, not at
 * start-up: a server whose users never use passkeys never holds them (docs/decisions.md "Database access on the hot
 * paths": libraries a feature alone needs are loaded on its first use).
 */
let loaded: Promise<typeof import('@simplewebauthn/server')> | undefined;

export const webauthn = () => (loaded ??= import('@simplewebauthn/server'));
