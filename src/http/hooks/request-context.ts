import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import proxyaddr from 'proxy-addr';

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a well-formed `X-Request-ID`, otherwise make one. */
export function genReqId(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
}

/**
 * Client IP per docs/decisions.md "Platform": the socket peer, unless the peer is a trusted proxy; then the right-most
 * `X-Forwarded-For` entry that is not a trusted proxy (proxy-addr walks the chain that way).
 * No other header is consulted.
 */
export function clientIpResolver(trustedProxies: readonly string[]): (raw: IncomingMessage) => string {
  if (trustedProxies.length === 0) return (raw) => raw.socket.remoteAddress ?? 'unknown';
  const trust = proxyaddr.compile([...trustedProxies]);
  return (raw) => proxyaddr(raw, trust);
}

/**
 * The public origin (`scheme://host`) a request was sent to: the `X-Forwarded-Proto` and `X-Forwarded-Host` of a
 * trusted proxy (first value of each), else the connection's scheme and the `Host` header. For addresses Gatehouse
 * gives out about itself (the social-login callback), which must be the ones the browser used.
 */
export function publicOriginResolver(trustedProxies: readonly string[]): (req: FastifyRequest) => string {
  const trust = trustedProxies.length ? proxyaddr.compile([...trustedProxies]) : null;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim() || undefined;
  return (req) => {
    const viaProxy = trust !== null && trust(req.raw.socket.remoteAddress ?? '', 0);
    const proto = (viaProxy && first(req.headers['x-forwarded-proto'])) || req.protocol;
    const host = (viaProxy && first(req.headers['x-forwarded-host'])) || req.headers.host || 'localhost';
    return `${proto === 'https' ? 'https' : 'http'}://${host}`;
  };
}

export function registerRequestContext(app: FastifyInstance, trustedProxies: readonly string[]): void {
  const resolveIp = clientIpResolver(trustedProxies);
  app.decorateRequest('clientIp', '');
  app.decorateRequest('application', null);
  app.decorateRequest('auth', null);
  app.decorateRequest('org', null);
  app.decorateRequest('agent', null);
  // Per-request hooks that await nothing are callback hooks: an async hook costs a promise on every answer.
  app.addHook('onRequest', (req, reply, done) => {
    req.clientIp = resolveIp(req.raw);
    reply.header('x-request-id', req.id);
    done();
  });
}
