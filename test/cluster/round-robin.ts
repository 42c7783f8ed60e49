import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Pins a request to one instance (its index); the proxy removes it before forwarding. */
export const PIN_HEADER = 'x-cluster-instance';
/** Names, on every answer, the index of the instance that served it. */
export const SERVED_BY_HEADER = 'x-cluster-served-by';

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message: a proxy must not pass them on. Passing
 * the instance's `Keep-Alive: timeout=72` to a client would let it reuse a connection the proxy has already closed.
 */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept = { ...headers };
  for (const name of HOP_BY_HOP) delete kept[name];
  return kept;
}

export interface RoundRobin {
  port: number;
  /** `http://127.0.0.1:<port>`: what clients (and `SVC_PUBLIC_URL`) see. */
  origin: string;
  /** The instances behind the proxy, by their ports, in the order the pin header indexes them. */
  setTargets(ports: number[]): void;
  close(): Promise<void>;
}

/**
 * A loopback reverse proxy in front of several instances, as a load balancer would stand in front of them: each request
 * goes to the next instance in turn, or to the one its `x-cluster-instance` header names. Like a real proxy it appends
 * its client's address to `X-Forwarded-For`, so instances that trust loopback see the address a test claims.
 */
export async function startRoundRobin(): Promise<RoundRobin> {
  let targets: number[] = [];
  let turn = 0;
  // Kept-alive connections to the instances, so a burst of requests does not open a socket each.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });

  const server = createServer((req, res) => {
    const pinned = req.headers[PIN_HEADER];
    const index = typeof pinned === 'string' ? Number(pinned) : turn++ % Math.max(1, targets.length);
    const port = targets[index];
    if (port === undefined) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`no instance ${index} behind the proxy`);
      return;
    }
    const headers = endToEnd(req.headers);
    delete headers[PIN_HEADER];
    const peer = req.socket.remoteAddress ?? 'unknown';
    const forwarded = headers['x-forwarded-for'];
    headers['x-forwarded-for'] = forwarded ? `${String(forwarded)}, ${peer}` : peer;

    const upstream = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...endToEnd(answer.headers), [SERVED_BY_HEADER]: String(index) });
      answer.pipe(res);
    });
    upstream.once('error', (err) => {
      if (res.headersSent) res.destroy(err);
      else res.writeHead(502, { 'content-type': 'text/plain' }).end(`instance ${index}: ${err.message}`);
    });
    req.pipe(upstream);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    setTargets: (ports) => { targets = [...ports]; },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      agent.destroy();
      server.close(() => resolve());
    }),
  };
}
