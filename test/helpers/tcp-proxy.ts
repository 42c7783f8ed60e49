import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The loopback port the proxy listens on; it stays the same across `cut` and `restore`. */
  readonly port: number;
  /** Client connections currently open through the proxy. */
  connections(): number;
  /** Closes the listener and destroys every connection: new connections are refused. */
  cut(): Promise<void>;
  /** Destroys every connection with a TCP RST; new connections still pass. */
  reset(): void;
  /** Keeps accepting connections but forwards nothing, in either direction, on old and new ones. */
  stall(): void;
  /** Forwards again (listening again after `cut`); connections that lost bytes while stalled are dropped. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair { client: Socket; upstream?: Socket; lostBytes: boolean }

/** A loopback TCP proxy in front of `target` whose test can refuse, reset or stall the connections it carries. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let stalled = false;
  let server: Server | undefined;
  let port = 0;

  const destroy = (pair: Pair, withReset = false) => {
    pairs.delete(pair);
    for (const socket of [pair.client, pair.upstream]) {
      if (!socket || socket.destroyed) continue;
      if (withReset && socket.readyState === 'open') socket.resetAndDestroy();
      else socket.destroy();
    }
  };

  /** Writes what `from` reads to `to`; while stalled the bytes are dropped, and the pair remembers it. */
  const forward = (pair: Pair, from: Socket, to: Socket) => from.on('data', (chunk: Buffer) => {
    if (stalled) pair.lostBytes = true;
    else if (!to.destroyed) to.write(chunk);
  });

  function accept(client: Socket): void {
    const pair: Pair = { client, lostBytes: false };
    pairs.add(pair);
    client.on('error', () => destroy(pair)).on('close', () => destroy(pair));
    if (stalled) {
      // Accepted, then silence: the connection attempt succeeds and no byte ever comes back.
      client.on('data', () => { pair.lostBytes = true; });
      return;
    }
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('error', () => destroy(pair)).on('close', () => destroy(pair));
    forward(pair, client, upstream);
    forward(pair, upstream, client);
  }

  const listen = () => new Promise<void>((resolve, reject) => {
    const s = createServer(accept);
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => {
      port = (s.address() as AddressInfo).port;
      server = s;
      resolve();
    });
  });
  const stopListening = () => new Promise<void>((resolve) => {
    const s = server;
    server = undefined;
    if (s) s.close(() => resolve());
    else resolve();
  });
  const destroyAll = (withReset = false) => { for (const pair of [...pairs]) destroy(pair, withReset); };

  await listen();
  return {
    get port() { return port; },
    connections: () => pairs.size,
    async cut() {
      const closed = stopListening();
      destroyAll();
      await closed;
    },
    reset: () => destroyAll(true),
    stall() { stalled = true; },
    async restore() {
      stalled = false;
      for (const pair of [...pairs]) if (pair.lostBytes || !pair.upstream) destroy(pair);
      if (!server) await listen();
    },
    async close() {
      const closed = stopListening();
      destroyAll();
      await closed;
    },
  };
}
