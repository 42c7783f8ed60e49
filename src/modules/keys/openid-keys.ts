import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import type { Sealer } from '../../security/seal.js';
import type { Keyring, KeySource } from './keyring.js';
import { createStoredKeys } from './stored-keys.js';

type Deps = {
  db: Db; clock: Clock; config: Config; sealer: Sealer;
  /** Where the access-token keys come from: RS256 keys that are stored or configured are shared with the provider. */
  accessSource: KeySource;
  verifyingPeriod: number;
  announce: () => Promise<boolean>;
  onError: (message: string) => void;
};

/** The OpenID Provider signs ID tokens RS256 (docs/resource-servers.md "The OpenID Provider's keys"). */
export const OPENID_ALGORITHM = 'RS256';

/**
 * The OpenID Provider's own key set, when it needs one (docs/resource-servers.md "The OpenID Provider's keys"). With
 * RS256 access-token keys, stored or from `SVC_JWT_PRIVATE_KEY`, the provider shares them and this set stays empty.
 * Otherwise (HS256, EdDSA, ES256) it holds RS256 keys stored with purpose `oauth`, sealed and rotated like the stored
 * access keys. Nothing is read or created before the first `load`: the authorization server is optional.
 */
export function createOpenIdKeys({ accessSource, ...deps }: Deps) {
  const isShared = deps.config.JWT_ALGORITHM === OPENID_ALGORITHM && accessSource !== 'secret';
  const stored = createStoredKeys({ ...deps, purpose: 'oauth', algorithm: OPENID_ALGORITHM });
  let ring: Keyring | undefined;
  let loading: Promise<Keyring> | undefined;

  /** Loads (or reloads) the set, creating its first key; concurrent callers share one load. */
  function load(): Promise<Keyring> {
    if (isShared) throw new Error('the OpenID Provider shares the access-token keys: it has no key set of its own');
    loading ??= (async () => {
      try {
        ring = await stored.load(ring === undefined);
        return ring;
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  }

  return {
    /** Whether the provider signs with the access-token keys themselves (RS256, stored or configured). */
    isShared,
    /** The set as this instance loaded it; undefined until something asked for it (and always when shared). */
    loaded: (): Keyring | undefined => ring,
    current: (): Keyring | Promise<Keyring> => ring ?? load(),
    /** Waits for a load in progress, so that a version read next is compared with what that load saw. */
    settled: async (): Promise<void> => { await loading?.catch(() => undefined); },
    /** Reloads a loaded set whose stored version is no longer the one it was built from. */
    async reloadIfChanged(version: string): Promise<void> {
      if (ring && ring.version !== version) await load();
    },
    /** Whether the provider has a set of its own in the database: not shared, and created by an earlier `load`. */
    exists: async (): Promise<boolean> => !isShared && stored.exists(),
    /**
     * `gatehouse keys rotate`: a new key signs from now on, the previous one verifies on. Null when there is no set of
     * its own to rotate (shared, or never created: a rotation does not create it).
     */
    async rotate() {
      if (isShared || !(await stored.exists())) return null;
      const rotation = (await stored.rotate())!;
      if (ring) await load();
      return rotation;
    },
    /** The stored keys of the set, as stored (nothing created or opened). */
    list: () => stored.list(),
  };
}

export type OpenIdKeys = ReturnType<typeof createOpenIdKeys>;
