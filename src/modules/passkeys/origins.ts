import type { Config } from '../../config/settings.js';

/**
 * DECISIONS.md "Passkeys": the origins a ceremony may come from. `SVC_WEBAUTHN_ORIGINS` when set; else
 * `https://<rp id>` and the calling application's allowed origins whose host is the RP ID or a name under it.
 */
export function expectedOrigins(config: Pick<Config, 'WEBAUTHN_ORIGINS' | 'WEBAUTHN_RP_ID'>, allowedOrigins: readonly string[]): string[] {
  if (config.WEBAUTHN_ORIGINS.length > 0) return [...config.WEBAUTHN_ORIGINS];
  const rpId = config.WEBAUTHN_RP_ID.toLowerCase();
  const origins = new Set([`https://${rpId}`]);
  for (const origin of allowedOrigins) {
    let host: string;
    try {
      const u = new URL(origin);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') continue;
      host = u.hostname.toLowerCase();
    } catch {
      continue;
    }
    if (host === rpId || host.endsWith(`.${rpId}`)) origins.add(origin.replace(/\/+$/, ''));
  }
  return [...origins];
}
