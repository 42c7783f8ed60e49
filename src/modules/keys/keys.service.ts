import { ConfigError } from '../../config/errors.js';
import { publicUrlOf, type Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { throttled } from '../../core/throttle.js';
import type { ChangeBus } from '../../db/change-bus.js';
import type { Db } from '../../db/database.js';
import { hmacKey, type AsymmetricAlgorithm, type JwtKey, type KeyChoice } from '../../security/jwt.js';
import type { Sealer } from '../../security/seal.js';
import { importJwtKey, keyMaterialFromPem, privateJwkOf, publishedJwk, type PrivateJwk } from '../../security/signing-keys.js';
import { discoveryUnavailable } from './discovery.js';
import { watchKeys } from './key-watch.js';
import { algorithmsInUse, choose, publishedKeys, singleKeyRing, stateOf, type Keyring, type KeySource, type KeyState,
  type RingEntry } from './keyring.js';
import * as repo from './keys.repo.js';
import { createOpenIdKeys } from './openid-keys.js';
import { providerKeysOf, type ProviderKeys } from './provider-keys.js';
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
  /** What the key signs: access tokens, or the OpenID Provider's tokens. */
  purpose: repo.KeyPurpose;
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
  purpose: repo.KeyPurpose;
  previous: { kid: string; verifies_until: Date } | null;
  /** Whether the other instances were told (over Redis or PostgreSQL); otherwise they see it at their next poll. */
  announced: boolean;
}

/** How long the provider's key set, computed from unchanged rings, is answered again without recomputing it. */
const PROVIDER_SET_FRESH_MS = 1_000;

/**
 * Access-token signing keys (docs/resource-servers.md): the HS256 secret, a key from `SVC_JWT_PRIVATE_KEY`, or
 * keys generated and stored sealed in the database, rotated by `gatehouse keys rotate` and kept current on every instance.
 * Also the OpenID Provider's keys (`providerKeys`): the RS256 access keys themselves, or an RS256 set of its own.
 */
export function createKeyService(deps: Deps) {
  const { db, clock, config, sealer, changes } = deps;
  const source: KeySource = config.JWT_ALGORITHM === 'HS256' ? 'secret' : config.JWT_PRIVATE_KEY ? 'environment' : 'database';
  const algorithm = config.JWT_ALGORITHM as AsymmetricAlgorithm;
  const issuer = config.JWT_ISSUER;
  const onError = throttled(deps.onError, 60_000, () => clock.now().getTime());
  const storage = { db, clock, config, sealer, onError: deps.onError,
    verifyingPeriod: deps.longestTokenLifetime + RETIREMENT_MARGIN_SECONDS, announce: () => changes.publish('signing-keys') };
  const stored = createStoredKeys({ ...storage, purpose: 'access', algorithm });
  const openid = createOpenIdKeys({ ...storage, accessSource: source });
  // Under HS256 nothing published verifies a signature: the trail's checkpoints get an Ed25519 key of their own.
  const trail = source === 'secret' ? createStoredKeys({ ...storage, purpose: 'trail', algorithm: 'EdDSA' }) : undefined;
  let trailRing: Keyring | undefined;

  const entryOf = (key: JwtKey, from: KeySource, published: RingEntry['published']): RingEntry =>
    ({ key, source: from, published, createdAt: null, activatedAt: null, supersededAt: null, verifiesUntil: null });
  let ring: Keyring | undefined = source === 'secret'
    ? singleKeyRing(entryOf(hmacKey(config.JWT_SECRET_KEY!, issuer), 'secret', null), 'secret') : undefined;
  let loading: Promise<Keyring> | undefined;
  let lastUnknownKid = -Infinity;
  let isStarted = false;
  let stopWatch: (() => Promise<void>) | undefined;

  async function environmentRing(): Promise<Keyring> {
    const material = await keyMaterialFromPem(config.JWT_PRIVATE_KEY!, algorithm);
    let jwk: PrivateJwk | undefined;
    const privateJwk = () => (jwk ??= privateJwkOf({ kid: material.kid, algorithm, privatePem: material.privatePem }));
    return singleKeyRing({ ...entryOf(await importJwtKey(material, issuer), 'environment', publishedJwk(material)), privateJwk },
      'environment');
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

  /** Reloads each stored set (the access keys, the OpenID Provider's once loaded) that changed since this instance loaded it. */
  async function check(): Promise<Keyring> {
    if (source !== 'database' && !openid.loaded()) return ring ?? load();
    if (loading) await loading.catch(() => undefined);
    await openid.settled();
    const versions = await repo.keysVersions(db);
    await openid.reloadIfChanged(versions.oauth);
    if (source !== 'database') return ring ?? load();
    return ring && ring.version === versions.access ? ring : load();
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

  /** Watches the stored sets once started: the access keys when stored, the OpenID Provider's once loaded. */
  function watchStoredKeys(): void {
    if (!isStarted || stopWatch || (source !== 'database' && !openid.loaded())) return;
    stopWatch = watchKeys({ changes, check: async () => { await check(); }, onError });
  }

  /** Loads the keys before serving (creating the first one) and keeps them current; `stop` ends the watch. */
  async function start(): Promise<void> {
    isStarted = true;
    if (source !== 'secret') {
      try {
        await load();
      } catch (err) {
        if (err instanceof ConfigError) throw err;
        // A database not migrated yet (`serve --no-migrate`): readiness says so, and the keys load at first use.
        onError(`signing keys could not be loaded at start-up (${(err as Error).message}); they load at first use`);
      }
    }
    watchStoredKeys();
  }

  async function stop(): Promise<void> {
    isStarted = false;
    const stopping = stopWatch;
    stopWatch = undefined;
    await stopping?.();
  }

  /** The provider's key set last computed, from which rings and when (see providerKeys). */
  let lastSet: { rings: Keyring[]; at: number; set: ProviderKeys } | undefined;

  /**
   * The private JWKs the OpenID Provider signs and verifies with (docs/resource-servers.md "The OpenID Provider's
   * keys"): the RS256 signing key first, then the other keys of its set still verifying, then the asymmetric access keys
   * (signing key first) when they are not that set. The first call creates the provider's own set when it needs one.
   * `version` changes whenever a key does (a rotation on any instance, a retirement): rebuild the provider then.
   */
  async function providerKeys(): Promise<ProviderKeys> {
    const access = await current();
    const rings = openid.isShared ? [access] : [await openIdRing(), access];
    // Asked on every OAuth request: the same rings give the same set, recomputed once a second (a key may retire).
    const now = clock.now();
    if (lastSet && lastSet.rings.length === rings.length && lastSet.rings.every((r, i) => r === rings[i])
      && Math.abs(now.getTime() - lastSet.at) < PROVIDER_SET_FRESH_MS) {
      return { version: lastSet.set.version, keys: lastSet.set.keys.map((k) => ({ ...k })) };
    }
    const set = providerKeysOf(rings, now);
    lastSet = { rings, at: now.getTime(), set };
    return set;
  }

  /** The trail's own key set (HS256 only), loaded once, created the first time; it is not rotated. */
  async function trailKeys(): Promise<Keyring> {
    trailRing ??= await trail!.load(false);
    return trailRing;
  }

  /** The OpenID Provider's own set, loaded (created the first time) and from then on watched. */
  async function openIdRing(): Promise<Keyring> {
    const own = await openid.current();
    watchStoredKeys();
    return own;
  }

  /** `gatehouse keys rotate`: a new access key signs from now on; the previous one verifies until its last token has expired. */
  async function rotate(): Promise<Rotation> {
    if (source !== 'database') {
      throw new Error(`keys from ${source === 'secret' ? 'SVC_JWT_SECRET_KEY' : 'SVC_JWT_PRIVATE_KEY'} are not rotated`);
    }
    const rotation = (await stored.rotate())!;
    await load();
    return rotation;
  }

  /**
   * `gatehouse keys rotate`, for the OpenID Provider's own set: null when it has none (it shares the RS256 access keys,
   * or was never created; a rotation does not create it).
   */
  const rotateOpenId = (): Promise<Rotation | null> => openid.rotate();
  /** Whether the OpenID Provider has a key set of its own in the database (it is not sharing the access keys, and was created). */
  const hasOpenIdKeySet = (): Promise<boolean> => openid.exists();

  /** Every key with its state, the access keys first. Stored keys are listed as stored: nothing is created or opened. */
  async function list(): Promise<KeyListing[]> {
    const now = clock.now();
    const listed = (row: repo.SigningKeyRow): KeyListing => ({
      kid: row.kid, algorithm: row.algorithm, purpose: row.purpose, source: 'database',
      state: stateOf({ supersededAt: row.superseded_at, verifiesUntil: row.verifies_until }, now),
      created_at: row.created_at, activated_at: row.activated_at, superseded_at: row.superseded_at, verifies_until: row.verifies_until,
    });
    const access = source === 'database' ? (await stored.list()).map(listed)
      : [...(await current()).entries.values()].map((e): KeyListing => ({ kid: e.key.kid, algorithm: e.key.alg, purpose: 'access',
        state: stateOf(e, now), source: e.source, created_at: null, activated_at: null, superseded_at: null, verifies_until: null }));
    return [...access, ...(await openid.list()).map(listed), ...(trail ? (await trail.list()).map(listed) : [])];
  }

  return {
    source,
    start,
    stop,
    rotate,
    rotateOpenId,
    hasOpenIdKeySet,
    list,
    providerKeys,
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
    /**
     * The access keys' public parts, then those of the OpenID Provider's own set: with the authorization server on it is
     * loaded here, so every instance publishes it whether or not it served OAuth yet; off, as far as this instance loaded it.
     */
    jwks: async () => {
      const own = openid.isShared ? undefined : config.OAUTH_ENABLED ? await openIdRing() : openid.loaded();
      const checkpoints = trail && (trailRing ?? ((await trail.exists()) ? await trailKeys() : undefined));
      const now = clock.now();
      return { keys: [...publishedKeys(await current(), now), ...(own ? publishedKeys(own, now) : []),
        ...(checkpoints ? publishedKeys(checkpoints, now) : [])] };
    },
    /**
     * The key the agent trail's checkpoints are signed with (docs/agents.md "The trail"), published in the JWKS: the
     * access-token signing key when it is asymmetric, else the trail's own Ed25519 key, created the first time.
     */
    checkpointKey: async (): Promise<JwtKey> => (trail ? (await trailKeys()).signing : (await current()).signing),
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
