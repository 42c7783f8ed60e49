// A software WebAuthn authenticator (plus the browser part around it) for HTTP tests of the passkey endpoints.
// It answers the JSON options a server sends with the JSON a browser would post back: ES256 keys, 'none' attestation.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialDescriptorJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/** How the authenticator (and the browser it sits in) presents itself. */
export interface AuthenticatorOptions {
  /** The origin the "browser" reports in clientDataJSON, e.g. 'https://app.example.com'. */
  origin: string;
  /** AAGUID (16 bytes), default zeros. */
  aaguid?: Buffer;
  /** Reported as authenticatorAttachment; 'platform' (the default) has transport 'internal', 'cross-platform' has 'usb'. */
  attachment?: 'platform' | 'cross-platform';
  /** Backup eligible flag set on every credential it makes (default false). */
  backupEligible?: boolean;
  /** Backed up flag set on every credential it makes (default false). */
  backedUp?: boolean;
  /** Report a sign counter of 0 forever, as many passkeys do (default false). */
  zeroCounter?: boolean;
}

/** Per-ceremony deviations, to make a response the server must refuse. */
export interface CeremonyOverrides {
  /** clientDataJSON.origin instead of the authenticator's origin. */
  origin?: string;
  /** Hashed into authenticatorData instead of the options' RP ID (the credential stays scoped to the options' one). */
  rpId?: string;
  /** Base64url challenge put in clientDataJSON instead of the options' one. */
  challenge?: string;
  /** clientDataJSON.type instead of 'webauthn.create' / 'webauthn.get'. */
  type?: string;
  /** UP flag, default true. */
  userPresent?: boolean;
  /** UV flag, default true. */
  userVerified?: boolean;
  /** BE flag for this ceremony (a credential made with it keeps it). */
  backupEligible?: boolean;
  /** BS flag for this ceremony (a credential made with it keeps it). */
  backedUp?: boolean;
  /** Sign counter to put in authenticatorData, stored as the credential's counter. */
  counter?: number;
  /** Registration only: length of the random credential ID, default 32. */
  credentialIdLength?: number;
  /** Registration only: this credential ID (base64url) instead of a random one, as a cloned or misbehaving authenticator would. */
  credentialId?: string;
  /** Authentication only: userHandle (base64url) to answer, or null to omit it. */
  userHandle?: string | null;
}

/** A credential the authenticator holds. */
export interface SoftCredential {
  /** Credential ID, base64url. */
  id: string;
  rpId: string;
  /** The user.id (base64url) it was made for. */
  userHandle: string;
  counter: number;
  privateKey: KeyObject;
  residentKey: boolean;
  backupEligible: boolean;
  backedUp: boolean;
}

type Flags = { up: boolean; uv: boolean; be: boolean; bs: boolean; at: boolean };

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
/** Canonical base64url form of an ID, so differently padded spellings compare equal. */
const canonicalId = (id: string) => b64url(Buffer.from(id, 'base64url'));

/** An Error named like the DOMException a browser would throw. */
function domError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

function flagsByte({ up, uv, be, bs, at }: Flags): number {
  return (up ? 0x01 : 0) | (uv ? 0x04 : 0) | (be ? 0x08 : 0) | (bs ? 0x10 : 0) | (at ? 0x40 : 0);
}

function authenticatorData(rpId: string, flags: Flags, counter: number, attested?: Buffer): Buffer {
  const head = Buffer.alloc(37);
  sha256(rpId).copy(head, 0);
  head.writeUInt8(flagsByte(flags), 32);
  head.writeUInt32BE(counter >>> 0, 33);
  return attested ? Buffer.concat([head, attested]) : head;
}

/** The COSE_Key (EC2, ES256, P-256) of a public key, from the uncompressed point at the end of its SPKI. */
function coseKey(spki: Buffer): Uint8Array {
  const point = spki.subarray(spki.length - 65);
  if (point[0] !== 0x04) throw new Error('expected an uncompressed P-256 point');
  return encodeCBOR(new Map<number, CBORType>([
    [1, 2], [3, -7], [-1, 1], [-2, point.subarray(1, 33)], [-3, point.subarray(33, 65)],
  ]));
}

/** aaguid | credential ID length | credential ID | COSE public key. */
function attestedCredentialData(aaguid: Buffer, credentialId: Buffer, spki: Buffer): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(credentialId.length);
  return Buffer.concat([aaguid, length, credentialId, coseKey(spki)]);
}

function isResident(selection: PublicKeyCredentialCreationOptionsJSON['authenticatorSelection']): boolean {
  return selection?.residentKey === 'required' || selection?.residentKey === 'preferred' || selection?.requireResidentKey === true;
}

/** A software passkey authenticator answering navigator.credentials.create() / get() options as a browser would. */
export class SoftAuthenticator {
  /** Every credential made so far, oldest first. */
  readonly credentials: SoftCredential[] = [];
  private readonly opts: AuthenticatorOptions;
  private readonly aaguid: Buffer;

  /** @param opts the origin it runs on and how it presents itself */
  constructor(opts: AuthenticatorOptions) {
    this.opts = opts;
    this.aaguid = opts.aaguid ?? Buffer.alloc(16);
    if (this.aaguid.length !== 16) throw new Error('an AAGUID is 16 bytes');
  }

  private get attachment(): 'platform' | 'cross-platform' {
    return this.opts.attachment ?? 'platform';
  }

  private defaultRpId(): string {
    return new URL(this.opts.origin).hostname;
  }

  private holds(rpId: string, descriptors: PublicKeyCredentialDescriptorJSON[] | undefined): SoftCredential | undefined {
    for (const { id } of descriptors ?? []) {
      const found = this.credentials.find((c) => c.rpId === rpId && c.id === canonicalId(id));
      if (found) return found;
    }
    return undefined;
  }

  /**
   * Answers navigator.credentials.create() for the creation options a server sends.
   * @throws Error named 'InvalidStateError' when excludeCredentials names a credential it holds for that RP,
   *   'NotSupportedError' when pubKeyCredParams offers no ES256
   */
  create(options: PublicKeyCredentialCreationOptionsJSON, overrides: CeremonyOverrides = {}): RegistrationResponseJSON {
    const rpId = options.rp.id ?? this.defaultRpId();
    if (this.holds(rpId, options.excludeCredentials)) {
      throw domError('InvalidStateError', 'the authenticator already holds an excluded credential');
    }
    if (options.pubKeyCredParams.length && !options.pubKeyCredParams.some((p) => p.alg === -7)) {
      throw domError('NotSupportedError', 'no ES256 in pubKeyCredParams');
    }
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const spki = publicKey.export({ format: 'der', type: 'spki' });
    const rawId = overrides.credentialId ? Buffer.from(overrides.credentialId, 'base64url') : randomBytes(overrides.credentialIdLength ?? 32);
    const credential: SoftCredential = {
      id: b64url(rawId), rpId, userHandle: canonicalId(options.user.id), counter: this.nextCounter(0, overrides), privateKey,
      residentKey: isResident(options.authenticatorSelection),
      backupEligible: overrides.backupEligible ?? this.opts.backupEligible ?? false,
      backedUp: overrides.backedUp ?? this.opts.backedUp ?? false,
    };
    const flags = this.flags(credential, overrides, true);
    const authData = authenticatorData(overrides.rpId ?? rpId, flags, credential.counter, attestedCredentialData(this.aaguid, rawId, spki));
    const attestationObject = encodeCBOR(new Map<string, CBORType>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, overrides);
    this.credentials.push(credential);
    return {
      id: credential.id, rawId: credential.id, type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), authenticatorData: b64url(authData),
        transports: [this.attachment === 'platform' ? 'internal' : 'usb'], publicKeyAlgorithm: -7, publicKey: b64url(spki),
      },
      authenticatorAttachment: this.attachment,
      clientExtensionResults: { credProps: { rk: credential.residentKey } },
    };
  }

  /**
   * Answers navigator.credentials.get() for the request options a server sends: the first held credential named in
   * allowCredentials, or with none named the first discoverable one for the RP. Each call bumps the stored counter.
   * @throws Error named 'NotAllowedError' when it holds no fitting credential
   */
  get(options: PublicKeyCredentialRequestOptionsJSON, overrides: CeremonyOverrides = {}): AuthenticationResponseJSON {
    const rpId = options.rpId ?? this.defaultRpId();
    const credential = options.allowCredentials?.length
      ? this.holds(rpId, options.allowCredentials)
      : this.credentials.find((c) => c.rpId === rpId && c.residentKey);
    if (!credential) throw domError('NotAllowedError', 'the authenticator holds no credential for this request');
    credential.counter = this.nextCounter(credential.counter + 1, overrides);
    const authData = authenticatorData(overrides.rpId ?? rpId, this.flags(credential, overrides, false), credential.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), { key: credential.privateKey, dsaEncoding: 'der' });
    const userHandle = overrides.userHandle !== undefined ? overrides.userHandle : credential.residentKey ? credential.userHandle : null;
    return {
      id: credential.id, rawId: credential.id, type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature),
        ...(userHandle === null ? {} : { userHandle }),
      },
      authenticatorAttachment: this.attachment,
      clientExtensionResults: {},
    };
  }

  /** The clientDataJSON bytes the browser would make, with any overridden fields. */
  private clientData(type: string, challenge: string, overrides: CeremonyOverrides): Buffer {
    const { type: kind = type, challenge: sent = challenge, origin = this.opts.origin } = overrides;
    return Buffer.from(JSON.stringify({ type: kind, challenge: sent, origin, crossOrigin: false }));
  }

  private nextCounter(natural: number, overrides: CeremonyOverrides): number {
    if (overrides.counter !== undefined) return overrides.counter;
    return this.opts.zeroCounter ? 0 : natural;
  }

  private flags(credential: SoftCredential, overrides: CeremonyOverrides, attested: boolean): Flags {
    return {
      up: overrides.userPresent ?? true,
      uv: overrides.userVerified ?? true,
      be: overrides.backupEligible ?? credential.backupEligible,
      bs: overrides.backedUp ?? credential.backedUp,
      at: attested,
    };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * A deep copy of `response` with the field at the dotted `path` (e.g. 'response.attestationObject') set to `value`;
 * `undefined` removes the field. Every segment before the last must name an object.
 */
export function tamper<T>(response: T, path: string, value: unknown): T {
  const copy = structuredClone(response);
  const keys = path.split('.');
  const last = keys.pop();
  if (!last) throw new Error('tamper needs a path');
  const target = keys.reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), copy);
  if (!isObject(target)) throw new Error(`tamper: no object holds '${path}'`);
  const record = target;
  if (value === undefined) delete record[last];
  else record[last] = value;
  return copy;
}

/** Ready-made garbage for tamper(): a string that is not base64url, and base64url bytes that are not CBOR. */
export const GARBAGE = {
  base64url: '***not base64url***',
  cbor: b64url(Buffer.from([0xff, 0xfe, 0xfd])),
} as const;
