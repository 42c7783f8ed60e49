import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * Event-loop turns to wait before reaping idle connections: the bytes of a request a client has already sent may still
 * be unread on a connection (they are read on the next poll), and until then Node counts the connection as idle.
 */
const SETTLE_TURNS = 3;
/**
 * Node takes one queued connection per event-loop turn. Before the listener closes, the loop turns until a turn takes
 * none (the queue is empty), at most this many times: more than the listen backlog (511) holds.
 */
const MAX_ACCEPT_TURNS = 1024;

/** Resolves after the loop has gone once more through its poll phase (where connections are accepted and read). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
async function settle(): Promise<void> {
  for (let i = 0; i < SETTLE_TURNS; i++) await nextTurn();
}

export interface ConnectionDrain {
  /** From now on every answer closes its connection (`Connection: close`), so keep-alive clients move elsewhere. */
  closeAfterEachAnswer(): void;
  /**
   * Stops accepting connections (`onListenerClosed` is told), lets every request finish, closes idle keep-alive
   * connections once nothing is in flight, and resolves when no connection is left.
   */
  drain(onListenerClosed: () => void): Promise<void>;
  /** What is still open, for the log. */
  pending(): { requests: number; connections: number };
}

/**
 * Graceful close of a Node HTTP server without resetting a request that reached it. Node's `server.close()` destroys
 * every connection it deems idle, and it deems one idle as soon as its answer has called `end()` (even while that
 * answer is still buffered for a slow reader and pipelined answers wait behind it) or while a request's bytes are still
 * unread: those would be cut off. So the listener is closed without that, and idle connections are reaped only when no
 * answer is left to write and the loop has had turns to read what clients sent.
 */
export function trackConnections(server: Server): ConnectionDrain {
  /** Per connection, its answers not yet handed to the kernel, oldest first (pipelined requests are answered in order). */
  const unfinished = new Map<Socket, ServerResponse[]>();
  const sockets = new Set<Socket>();
  let accepted = 0;
  let inFlight = 0;
  let closing = false;
  let listenerClosed = false;

  /**
   * Only the newest answer on a connection may close it: an older one closing it would drop the pipelined requests
   * behind it. An answer already marked whose headers are not out yet is given back its keep-alive.
   */
  const keepAliveOf = new WeakMap<ServerResponse, boolean>();
  const markLast = (answers: ServerResponse[]) => {
    answers.forEach((res, i) => {
      if (res.headersSent) return;
      if (i === answers.length - 1) {
        if (!keepAliveOf.has(res)) keepAliveOf.set(res, res.shouldKeepAlive);
        res.shouldKeepAlive = false;
      } else if (keepAliveOf.has(res)) {
        res.shouldKeepAlive = keepAliveOf.get(res)!;
        keepAliveOf.delete(res);
      }
    });
  };

  const reapIdle = async () => {
    await settle();
    if (inFlight > 0) return;
    server.closeIdleConnections();
  };
  const reapWhenDone = () => { if (listenerClosed && inFlight === 0) void reapIdle(); };

  server.on('connection', (socket: Socket) => {
    accepted++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // First in line, so the mark is set before the application writes anything.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (res.writableFinished || res.destroyed) return;
    const socket = req.socket;
    const answers = unfinished.get(socket) ?? [];
    answers.push(res);
    unfinished.set(socket, answers);
    inFlight++;
    if (closing) markLast(answers);
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      inFlight--;
      const left = (unfinished.get(socket) ?? []).filter((r) => r !== res);
      if (left.length) unfinished.set(socket, left);
      else unfinished.delete(socket);
      reapWhenDone();
    };
    res.once('finish', done); // every byte handed to the kernel
    res.once('close', done);
  });

  /**
   * A connection the kernel has queued was opened by a client that may have sent its request already: closing the
   * listener would reset it. So the queue is emptied first (each connection taken is answered, then closed).
   */
  const acceptQueued = async () => {
    await nextTurn();
    for (let turn = 0; turn < MAX_ACCEPT_TURNS; turn++) {
      const before = accepted;
      await nextTurn();
      if (accepted === before) return;
    }
  };

  const closeAfterEachAnswer = () => {
    closing = true;
    for (const answers of unfinished.values()) markLast(answers);
  };

  return {
    closeAfterEachAnswer,
    async drain(onListenerClosed) {
      closeAfterEachAnswer();
      await acceptQueued();
      // net's close, not http's: http's would reap idle connections at once and stop the header and request timeouts,
      // which still bound a slow client during the drain.
      const ended = new Promise<void>((resolve) => { NetServer.prototype.close.call(server, () => resolve()); });
      listenerClosed = true;
      onListenerClosed();
      reapWhenDone();
      await ended;
    },
    pending: () => ({ requests: inFlight, connections: sockets.size }),
  };
}
