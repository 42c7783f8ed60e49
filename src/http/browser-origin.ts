import type { FastifyRequest } from 'fastify';
import { publicUrlOf, type Config } from '../config/settings.js';
import { publicOriginResolver } from './hooks/request-context.js';

/**
 * The origin of the page that made a request, as far as a browser vouches for it (docs/decisions.md "Public applications"): its
 * `Origin` header, which page script cannot set. A browser leaves `Origin` out of a same-origin GET or HEAD; such a
 * request counts as coming from the service's own origin (SVC_PUBLIC_URL) when it carries `Sec-Fetch-Site: same-origin`
 * (another header script cannot set) and is addressed to the host of SVC_PUBLIC_URL (as a trusted proxy forwards it).
 * Undefined otherwise. A non-browser client can send any of these headers: this names the calling code for a public
 * application, it authenticates nothing.
 */
export function browserOriginResolver(config: Pick<Config, 'PUBLIC_URL' | 'PORT' | 'TRUSTED_PROXIES'>) {
  const own = new URL(publicUrlOf(config));
  const addressedTo = publicOriginResolver(config.TRUSTED_PROXIES);
  const ownOrigin = own.origin;
  const ownHost = own.host;
  return (req: FastifyRequest): string | undefined => {
    const origin = req.headers.origin;
    if (typeof origin === 'string' && origin !== '') return origin;
    if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
    if (req.headers['sec-fetch-site'] !== 'same-origin') return undefined;
    const addressed = addressedTo(req);
    return addressed.slice(addressed.indexOf('://') + 3).toLowerCase() === ownHost ? ownOrigin : undefined;
  };
}

export type BrowserOriginResolver = ReturnType<typeof browserOriginResolver>;
