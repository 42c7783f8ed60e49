import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import proxyaddr from 'proxy-addr';

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a well-formed `X-Request-ID`, otherwise make one. */
export function genReqId(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
}

/**
 * Client IP per DECISIONS.md: the socket peer, unless the peer is a trusted proxy; then the right-most
 * `X-Forwarded-For` entry that is not a trusted proxy (proxy-addr walks the chain that way).
 * No other header is consulted.
 */
export function clientIpResolver(trustedProxies: readonly string[]): (raw: IncomingMessage) => string {
  if (trustedProxies.length === 0) return (raw) => raw.socket.remoteAddress ?? 'unknown';
  const trust = proxyaddr.compile([...trustedProxies]);
  return (raw) => proxyaddr(raw, trust);
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
