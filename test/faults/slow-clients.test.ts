import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { runCli, startServer, type RunningServer } from '../helpers/cli.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-db.js';
import { apiClient, createApplication, SKIP_WITHOUT_POSTGRES as skip, sleep, type ApiClient } from './helpers.js';

// A slow client must not hold the server: sockets that send their headers a byte at a time (slowloris) are closed once
// the headers timeout (10 s) has passed, other clients are served meanwhile, and a header block over the limit is refused
// at once (src/app.ts sets connectionTimeout, requestTimeout, headersTimeout and maxHeaderSize).

const SLOW_SOCKETS = 100;
/** Correctness bounds: the server closes a slow socket 10 s after its first byte (checked every second). */
const HEADERS_TIMEOUT_MS = 10_000;
const CLOSE_BOUND_MS = 20_000;
/** A request of another client answers within this while the slow sockets are open; starved, it would wait 10 s or more. */
const ANSWER_BOUND_MS = 3_000;
const PASSWORD = 'Slow-Client-Pass-2e9a';

interface SlowSocket {
  socket: Socket;
  openedAt: number;
  closedAt?: number;
  /** What the server wrote before closing. */
  received: string;
}

/** Opens a connection and starts a request whose header block it never finishes. */
async function openSlowSocket(port: number): Promise<SlowSocket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => { /* a write racing the server's close */ });
  await once(socket, 'connect');
  const slow: SlowSocket = { socket, openedAt: Date.now(), received: '' };
  socket.setEncoding('latin1').on('data', (d: string) => { slow.received += d; });
  socket.once('close', () => { slow.closedAt = Date.now(); });
  socket.write(`GET /health/live HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
  return slow;
}

/** Sends `head` (a request line and headers) on a fresh connection and reads until the server closes it. */
async function rawRequest(port: number, head: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => { /* the server may close before reading everything */ });
  await once(socket, 'connect');
  let received = '';
  socket.setEncoding('latin1').on('data', (d: string) => { received += d; });
  const closed = once(socket, 'close');
  socket.end(head);
  await closed;
  return received;
}

describe('gatehouse serve under slow clients', { skip }, () => {
  let database: ScratchDatabase;
  let server: RunningServer;
  let api: ApiClient;

  before(async () => {
    database = await createScratchDatabase('postgres', { prepared: true });
    const app = await createApplication(database.env);
    const user = await runCli(['user', 'create', '--email', 'ann@example.com', '--password-stdin', '--json'], { env: database.env, input: PASSWORD });
    assert.equal(user.code, 0, user.stderr);
    server = await startServer({ env: {
      ...database.env,
      // A login every half second for a quarter of a minute: the limits are not what is tested here.
      SVC_RATE_LIMITING_ENABLED: 'false',
    } });
    api = apiClient(server, app);
  });
  after(async () => {
    await server?.kill();
    await database?.drop();
  });

  it(`${SLOW_SOCKETS} sockets trickling header bytes: other clients are served meanwhile, and the server closes the slow ones`, async () => {
    const slow = await Promise.all(Array.from({ length: SLOW_SOCKETS }, () => openSlowSocket(server.port)));
    // One more header line a second on every socket: never idle, never finished.
    let line = 0;
    const trickle = setInterval(() => {
      line++;
      for (const s of slow) if (!s.socket.destroyed) s.socket.write(`X-Slow-${line}: ${line}\r\n`);
    }, 1000);
    try {
      // While the slow sockets are all open, other clients sign in and are answered at once.
      const answered: number[] = [];
      while (Date.now() - slow[0]!.openedAt < HEADERS_TIMEOUT_MS / 2) {
        const [login, requirements] = await Promise.all([
          api.post('login/email/', { email: 'ann@example.com', password: PASSWORD }),
          fetch(`${server.origin}/health/live`).then(async (res) => ({ status: res.status, body: await res.text() })),
        ]);
        assert.equal(login.status, 200, JSON.stringify(login.body));
        assert.ok(login.ms < ANSWER_BOUND_MS, `a login answered in ${login.ms} ms`);
        assert.equal(requirements.status, 200);
        answered.push(login.ms);
        await sleep(500);
      }
      assert.ok(answered.length >= 3, `${answered.length} logins answered`);
      assert.equal(slow.filter((s) => s.closedAt !== undefined).length, 0, 'the slow sockets were still open meanwhile');

      // Then the server closes every one of them.
      const deadline = slow[0]!.openedAt + CLOSE_BOUND_MS;
      while (slow.some((s) => s.closedAt === undefined) && Date.now() < deadline) await sleep(100);
      const open = slow.filter((s) => s.closedAt === undefined).length;
      assert.equal(open, 0, `${open} slow sockets still open ${CLOSE_BOUND_MS / 1000} s after they started`);
      for (const s of slow) {
        assert.ok(s.closedAt! - s.openedAt >= HEADERS_TIMEOUT_MS - 1000, `a slow socket closed after ${s.closedAt! - s.openedAt} ms`);
        // Nothing was ever routed: a 408 and the close.
        assert.match(s.received, /^HTTP\/1\.1 408 /);
      }
    } finally {
      clearInterval(trickle);
      for (const s of slow) s.socket.destroy();
    }

    // And the server still serves.
    const login = await api.post('login/email/', { email: 'ann@example.com', password: PASSWORD });
    assert.equal(login.status, 200);
  });

  it('a header block over 16 KiB answers 431 and is closed; one of 12 KiB is served', async () => {
    const head = (bytes: number) => `GET /health/live HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Padding: ${'a'.repeat(bytes)}\r\n\r\n`;
    const refused = await rawRequest(server.port, head(17 * 1024));
    assert.match(refused, /^HTTP\/1\.1 431 /);
    const served = await rawRequest(server.port, head(12 * 1024));
    assert.match(served, /^HTTP\/1\.1 200 /);
  });
});
