import { ConfigError } from '../../config/errors.js';
import { publicUrlOf, type Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { throttled } from '../../core/throttle.js';
import type { ChangeBus } from '../../db/change-bus.js';
import type { Db } from '../../db/database.js';
import { hmacKey, type AsymmetricAlgorithm, type JwtKey, type KeyChoice } from '../../security/jwt.js';
import type { Sealer } from '../../security/seal.js';
import { importJwtKey, keyMaterialFromPem, publishedJwk } from '../../security/signing-keys.js';
import { watchKeys } from './key-watch.js';
import { algorithmsInUse, choose, publishedKeys, singleKeyRing, stateOf, type Keyring, type KeySource, type KeyState,
  type RingEntry } from './keyring.js';
import { createStoredKeys } from './stored-keys.js';

type Deps = {
  db: Db; clock: Clock; config: Config; sealer: Sealer; changes: ChangeBus;
  /** The longest lifetime of an access token this service signs (seconds): how long a superseded key keeps verifying. */
  longestTokenLifetime: number;
  onError: (message: string) => void;
};

/**
 * Beyond the longest token lifetime, a superseded key verifies this much longer: an instance that has not yet heard of
 * a rotation (about a second) signs a little longer with the old key, and clocks differ between machines.
 */
export const RETIREMENT_MARGIN_SECONDS = 60;
/** A token naming a kid this instance does not know reloads the keys at most this often (a forged kid costs no more). */
const UNKNOWN_KID_RELOAD_MS = 1_000;

export interface KeyListing {
  kid: string;
  algorithm: string;
  state: KeyState;
  source: KeySource;
  created_at: Date | null;
  activated_at: Date | null;
  superseded_at: Date | null;
  verifies_until: Date | null;
}

export interface Rotation {
  kid: string;
  algorithm: AsymmetricAlgorithm;
  previous: { kid: string; verifies_until: Date } | null;
  /** Whether the other instances were told (over Redis or PostgreSQL); otherwise they see it at their next poll. */
  announced: boolean;
}

/**
 * Access-token signing keys (docs/resource-servers.md): the HS256 secret, a key from `SVC_JWT_PRIVATE_KEY`, or
 * keys generated and stored sealed in the database, rotated by `gatehouse keys rotate` and kept current on every instance.
 */
export function createKeyService(deps: Deps) {
  const { db, clock, config, sealer, changes } = deps;
  const source: KeySource = config.JWT_ALGORITHM === 'HS256' ? 'secret' : config.JWT_PRIVATE_KEY ? 'environment' : 'database';
  const algorithm = config.JWT_ALGORITHM as AsymmetricAlgorithm;
  const issuer = config.JWT_ISSUER;
  const onError = throttled(deps.onError, 60_000, () => clock.now().getTime());
  const stored = createStoredKeys({ db, clock, config, sealer, onError: deps.onError,
    verifyingPeriod: deps.longestTokenLifetime + RETIREMENT_MARGIN_SECONDS, announce: () => changes.publish('signing-keys') });

  const entryOf = (key: JwtKey, from: KeySource, published: RingEntry['published']): RingEntry =>
    ({ key, source: from, published, createdAt: null, activatedAt: null, supersededAt: null, verifiesUntil: null });
  let ring: Keyring | undefined = source === 'secret'
    ? singleKeyRing(entryOf(hmacKey(config.JWT_SECRET_KEY!, issuer), 'secret', null), 'secret') : undefined;
  let loading: Promise<Keyring> | undefined;
  let lastUnknownKid = -Infinity;
  let stopWatch: (() => Promise<void>) | undefined;

  async function environmentRing(): Promise<Keyring> {
    const material = await keyMaterialFromPem(config.JWT_PRIVATE_KEY!, algorithm);
    return singleKeyRing(entryOf(await importJwtKey(material, issuer), 'environment', publishedJwk(material)), 'environment');
  }

  /** Loads (or reloads) the keys; concurrent callers share one load. The first load of the process is the start-up one. */
  function load(): Promise<Keyring> {
    loading ??= (async () => {
      try {
        ring = source === 'environment' ? await environmentRing() : await stored.load(ring === undefined);
        return ring;
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  }

  /** Reloads when the stored keys changed since this instance loaded them. */
  async function check(): Promise<Keyring> {
    if (source !== 'database') return ring ?? load();
    if (loading) await loading.catch(() => undefined);
    const version = await stored.version();
    return ring && ring.version === version ? ring : load();
  }

  const current = (): Keyring | Promise<Keyring> => ring ?? load();

  /** The key a token's kid names; a kid this instance does not know yet makes it look at the stored keys first. */
  function resolve(kid: string | undefined): KeyChoice | undefined | Promise<KeyChoice | undefined> {
    const now = clock.now();
    const found = ring && choose(ring, kid, now);
    if (found || (ring && (kid === undefined || source !== 'database'))) return found;
    if (ring && Math.abs(now.getTime() - lastUnknownKid) < UNKNOWN_KID_RELOAD_MS) return undefined;
    lastUnknownKid = now.getTime();
    return check().then((fresh) => choose(fresh, kid, now));
  }

  /** Loads the keys before serving (creating the first one) and keeps them current; `stop` ends the watch. */
  async function start(): Promise<void> {
    if (source === 'secret') return;
    try {
      await load();
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      // A database not migrated yet (`serve --no-migrate`): readiness says so, and the keys load at first use.
      onError(`signing keys could not be loaded at start-up (${(err as Error).message}); they load at first use`);
    }
    if (source === 'database' && !stopWatch) stopWatch = watchKeys({ changes, check: async () => { await check(); }, onError });
  }

  async function stop(): Promise<void> {
    const stopping = stopWatch;
    stopWatch = undefined;
    await stopping?.();
  }

  /** `gatehouse keys rotate`: a new key signs from now on; the previous one verifies until its last token has expired. */
  async function rotate(): Promise<Rotation> {
    if (source !== 'database') {
      throw new Error(`keys from ${source === 'secret' ? 'SVC_JWT_SECRET_KEY' : 'SVC_JWT_PRIVATE_KEY'} are not rotated`);
    }
    const rotation = (await stored.rotate())!;
    await load();
    return rotation;
  }

  /** Every key with its state. Stored keys are listed as stored: nothing is created or opened. */
  async function list(): Promise<KeyListing[]> {
    const now = clock.now();
    if (source !== 'database') {
      return [...(await current()).entries.values()].map((e) => ({ kid: e.key.kid, algorithm: e.key.alg, state: stateOf(e, now),
        source: e.source, created_at: null, activated_at: null, superseded_at: null, verifies_until: null }));
    }
    return (await stored.list()).map((row) => ({
      kid: row.kid, algorithm: row.algorithm, source: 'database' as const,
      state: stateOf({ supersededAt: row.superseded_at, verifiesUntil: row.verifies_until }, now),
      created_at: row.created_at, activated_at: row.activated_at, superseded_at: row.superseded_at, verifies_until: row.verifies_until,
    }));
  }

  return {
    source,
    start,
    stop,
    rotate,
    list,
    /** Reloads if the stored keys changed (tests, and the watch). */
    check,
    signingKey: async (): Promise<JwtKey> => (await current()).signing,
    /** The signing key as loaded: for code that cannot wait (tests forging tokens); throws before the first load. */
    loadedSigningKey(): JwtKey {
      if (!ring) throw new Error('the signing keys are not loaded yet');
      return ring.signing;
    },
    resolve,
    /** Whether the key a kid names still verifies (a token verified earlier is refused once its key retires). */
    accepts(kid: string | undefined, now: Date): boolean {
      const found = ring && choose(ring, kid, now);
      return found !== undefined && !found.retired;
    },
    jwks: async () => ({ keys: publishedKeys(await current(), clock.now()) }),
    /**
     * OpenID-style discovery: only what is true of Gatehouse (it issues access tokens, no ID tokens; see
     * docs/resource-servers.md "Discovery"). With HS256 nothing can be verified by a third party, and an issuer that
     * is not a URL is no OpenID issuer: there is then no document, and the answer says which setting would make one.
     */
    async discovery() {
      const missing = discoveryUnavailable(config.JWT_ALGORITHM, issuer);
      if (missing) throw missing;
      return {
        issuer,
        jwks_uri: `${publicUrlOf(config)}/.well-known/jwks.json`,
        id_token_signing_alg_values_supported: algorithmsInUse(await current(), clock.now()),
      };
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;

/** Whether `value` is an `http(s)` URL, as an OpenID issuer must be (OpenID Connect Discovery 1.0 §3). */
export const isUrlIssuer = (value: string): boolean => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * Why there is no discovery document, as the 404 FEATURE_DISABLED of a feature that is off, naming the setting to change
 * (docs/configuration.md "Feature switches"); undefined when there is one. A symmetric algorithm is never advertised.
 */
export function discoveryUnavailable(algorithm: Config['JWT_ALGORITHM'], issuer: string): AppError | undefined {
  if (algorithm === 'HS256') {
    return new AppError('FEATURE_DISABLED', {
      message: 'Access tokens are signed with HS256, a shared secret: there are no public keys to discover. '
        + 'Set SVC_JWT_ALGORITHM to EdDSA, ES256 or RS256 to publish them',
      details: { setting: 'SVC_JWT_ALGORITHM' },
    });
  }
  if (!isUrlIssuer(issuer)) {
    return new AppError('FEATURE_DISABLED', {
      message: 'SVC_JWT_ISSUER is not a URL, which an OpenID issuer must be: set it to the service\'s URL, or unset it to use SVC_PUBLIC_URL',
      details: { setting: 'SVC_JWT_ISSUER' },
    });
  }
  return undefined;
}
