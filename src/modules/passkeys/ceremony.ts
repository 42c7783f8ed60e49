import { decodeClientDataJSON } from '@simplewebauthn/server/helpers';
import { sha256Hex } from '../../security/random.js';

/** docs/passkeys.md: the options' timeout, and a challenge's life (single use). */
export const CEREMONY_TIMEOUT_MS = 300_000;
export const CHALLENGE_LIFETIME = 300;
/** ES256, RS256, EdDSA, in the order the options list them (docs/passkeys.md). */
export const ALGORITHMS = [-7, -257, -8];
/** WebAuthn Level 3: a longer credential id is refused at registration. */
export const MAX_CREDENTIAL_ID_BYTES = 1023;

/**
 * The SHA-256 of the challenge the browser signed, read from `clientDataJSON` (the complete steps accept a missing
 * `challenge_id`); undefined when it is not base64url JSON with a challenge.
 */
export function signedChallengeHash(clientDataJSON: unknown): string | undefined {
  if (typeof clientDataJSON !== 'string') return undefined;
  try {
    const { challenge } = decodeClientDataJSON(clientDataJSON);
    return typeof challenge === 'string' && challenge !== '' ? sha256Hex(challenge) : undefined;
  } catch {
    return undefined;
  }
}

/** The library's expected-challenge check against the stored hash. */
export const challengeMatches = (hash: string) => (challenge: string) => sha256Hex(challenge) === hash;

/** The begin answers: the flat options, `challenge_id`, and the same options under `publicKey` (docs/passkeys.md; docs/migrating-from-tenxyte.md, rule 5). */
export const beginAnswer = <T extends object>(options: T, challengeId: number) => ({ ...options, challenge_id: challengeId, publicKey: options });
