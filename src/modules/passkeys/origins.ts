import { isIP } from 'node:net';
import { publicUrlOf, type Config } from '../../config/settings.js';

/** `origin` without its trailing slash when it is an http(s) origin whose host is `rpId` or a name under it. */
function underRpId(origin: string, rpId: string): string | undefined {
  try {
    const u = new URL(origin);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
    const host = u.hostname.toLowerCase();
    return host === rpId || host.endsWith(`.${rpId}`) ? origin.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The origin of SVC_PUBLIC_URL as a passkey page reaches it: with an IP host (never an RP ID) the same server by the
 * name `localhost` (docs/passkeys.md "Settings").
 */
function publicOrigin(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  const u = new URL(publicUrlOf(config));
  if (isIP(u.hostname.replace(/^\[(.*)\]$/, '$1')) !== 0) u.hostname = 'localhost';
  return u.origin;
}

/**
 * The origins a ceremony may come from (docs/passkeys.md "Settings"). `SVC_WEBAUTHN_ORIGINS` when set; else the origin
 * of SVC_PUBLIC_URL, `https://<rp id>`, and the calling application's allowed origins, each whose host is the RP ID or
 * a name under it.
 */
export function expectedOrigins(config: Pick<Config, 'WEBAUTHN_ORIGINS' | 'WEBAUTHN_RP_ID' | 'PUBLIC_URL' | 'PORT'>,
  allowedOrigins: readonly string[]): string[] {
  if (config.WEBAUTHN_ORIGINS.length > 0) return [...config.WEBAUTHN_ORIGINS];
  const rpId = config.WEBAUTHN_RP_ID.toLowerCase();
  const origins = new Set<string>();
  for (const origin of [publicOrigin(config), `https://${rpId}`, ...allowedOrigins]) {
    const accepted = underRpId(origin, rpId);
    if (accepted) origins.add(accepted);
  }
  return [...origins];
}
