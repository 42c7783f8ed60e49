import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { Agent, get, request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runCli, startServer, type RunningServer } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type DatabaseKind, type ScratchDatabase } from '../helpers/scratch-db.js';
import { waitForLockWait } from '../helpers/pg-activity.js';

type Credentials = { access_key: string; access_secret: string };
const SHUTTING_DOWN = 'shutting down: draining in-flight requests';
const LISTENER_CLOSED = 'no longer accepting connections';
const DRAINED = 'drained: every request answered';
const PASSWORD = 'copper lantern meadow 7713';

/** Starts a GET and resolves with the response as soon as its status line and headers have arrived. */
function startGet(url: string, headers: Record<string, string> = {}, agent?: Agent): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    get(url, { headers, ...(agent ? { agent } : {}) }, resolve).on('error', reject);
  });
}

async function readBody(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Answer { status: number; connection: string | undefined; body: string }

/**
 * Sends one request through `agent` (which reuses its idle keep-alive connections): `sent` settles once the request
 * has been handed to the kernel, `answer` with the whole response, or rejects with the error of a reset connection.
 */
function send(agent: Agent, url: string, method: string, headers: Record<string, string>, body?: unknown) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  let sent!: Promise<void>;
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method, agent, headers: payload ? { ...headers, 'content-type': 'application/json' } : headers });
    sent = once(req, 'finish').then(() => undefined);
    sent.catch(() => undefined);
    req.on('error', reject);
    req.on('response', (res) => {
      readBody(res).then((b) => resolve({ status: res.statusCode!, connection: res.headers.connection, body: b.toString('utf8') }), reject);
    });
    req.end(payload);
  });
  // A test that fails early still leaves these answers settled and handled.
  answer.catch(() => undefined);
  return { sent, answer };
}

/** Opens a connection and writes a request's head and the first half of its body; `finish()` sends the rest. */
async function startSlowRequest(port: number, path: string, headers: Record<string, string>, body: unknown) {
  const socket: Socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const payload = Buffer.from(JSON.stringify(body));
  const head = [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Content-Type: application/json',
    `Content-Length: ${payload.length}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  socket.write(`${head}\r\n\r\n`);
  socket.write(payload.subarray(0, payload.length >> 1));
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = once(socket, 'close');
  closed.catch(() => undefined); // a test that never finishes the request leaves its connection to the server
  return {
    /** Sends the rest of the body and reads until the server closes the connection (the client does not half-close). */
    async finish(): Promise<{ status: number; head: string }> {
      socket.write(payload.subarray(payload.length >> 1));
      await closed;
      const text = Buffer.concat(chunks).toString('utf8');
      return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), head: text.slice(0, text.indexOf('\r\n\r\n')) };
    },
  };
}

/** The answer, or the error code of a connection reset or refused. */
const outcomeOf = (answer: Promise<Answer>): Promise<Answer | string> =>
  answer.catch((err: NodeJS.ErrnoException) => err.code ?? String(err));
/** A readiness answer as status, `status` field of the body, and Connection header. */
const readinessOf = (a: Answer | string) => {
  if (typeof a === 'string') return a;
  const state = (JSON.parse(a.body) as { status?: string }).status;
  return { status: a.status, state, connection: a.connection };
};
const summary = (a: Answer | string) => (typeof a === 'string' ? a : `${a.status} ${a.body}`);

/** Connects anew: `refused`, or the status of `/health/ready` asked on the new connection. */
function readinessOnNewConnection(port: number): Promise<'refused' | Answer> {
  return new Promise((resolve, reject) => {
    const req = get(`http://127.0.0.1:${port}/health/ready`, { agent: false }, (res) => {
      readBody(res).then((b) => resolve({ status: res.statusCode!, connection: res.headers.connection, body: b.toString('utf8') }), reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNREFUSED' ? resolve('refused') : reject(err)));
  });
}

interface RawResponse { status: number; declaredLength: number; bodyLength: number }

/**
 * Writes `count` GET requests at once on one connection (the last asks to close it), waits for the first
 * bytes of the answer (so every request has been read and routed), then stops reading.
 */
async function startPipelinedGets(port: number, path: string, count: number) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const request = (last: boolean) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${last ? 'Connection: close\r\n' : ''}\r\n`;
  socket.write(Array.from({ length: count }, (_, i) => request(i === count - 1)).join(''));
  const chunks: Buffer[] = [(await once(socket, 'data'))[0] as Buffer];
  socket.pause();
  return {
    /** Reads to the end of the connection and splits it into responses (by Content-Length). */
    async readAll(): Promise<RawResponse[]> {
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      const ended = once(socket, 'close');
      socket.resume();
      await ended;
      return parseResponses(Buffer.concat(chunks));
    },
  };
}

function parseResponses(data: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < data.length) {
    const headerEnd = data.indexOf('\r\n\r\n', at);
    assert.ok(headerEnd > at, 'a complete header block');
    const head = data.subarray(at, headerEnd).toString('latin1');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
    const declaredLength = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1]);
    const bodyLength = Math.min(declaredLength, data.length - (headerEnd + 4));
    responses.push({ status, declaredLength, bodyLength });
    at = headerEnd + 4 + bodyLength;
  }
  return responses;
}

async function assertReleased(kind: DatabaseKind, database: ScratchDatabase): Promise<void> {
  if (kind === 'pglite') assert.equal(existsSync(join(database.dataDir!, 'gatehouse.lock')), false, 'the lock file is removed');
  const next = await runCli(['migrate', '--status'], { env: database.env });
  assert.equal(next.code, 0, next.stderr);
  assert.match(next.stdout, /\[applied\] 0001_initial/);
}

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`graceful shutdown of gatehouse serve (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    let app: Credentials;
    let server: RunningServer | undefined;
    const appHeaders = () => ({ 'x-access-key': app.access_key, 'x-access-secret': app.access_secret });

    before(async () => {
      database = await createScratchDatabase(kind, { prepared: true });
      const created = await runCli(['app', 'create', '--name', 'Drain test', '--json'], { env: database.env });
      assert.equal(created.code, 0, created.stderr);
      app = JSON.parse(created.stdout) as Credentials;
      const user = await runCli(['user', 'create', '--email', 'drain@example.com', '--password-stdin', '--verified'],
        { env: database.env, input: PASSWORD });
      assert.equal(user.code, 0, user.stderr);
    });
    after(async () => {
      await server?.kill();
      await database?.drop();
    });

    if (kind === 'postgres') {
      it('SIGTERM while a request waits on the database: the request completes with 200, then the process exits 0', async () => {
        server = await startServer({ env: { ...database.env, SVC_LOG_LEVEL: 'info', SVC_SHUTDOWN_TIMEOUT: '3600' } });
        // Hold a lock the request needs, so it is provably in flight when the signal arrives.
        const blocker = new pg.Client({ connectionString: database.env.SVC_DATABASE_URL });
        await blocker.connect();
        const agent = new Agent({ keepAlive: true });
        try {
          await blocker.query('begin');
          await blocker.query('lock table applications in access exclusive mode');
          const response = startGet(`${server.apiUrl}password/requirements/`, appHeaders(), agent);
          await waitForLockWait(blocker);
          process.kill(server.pid, 'SIGTERM');
          await server.waitForOutput(SHUTTING_DOWN);
          await blocker.query('rollback');
          const res = await response;
          assert.equal(res.statusCode, 200);
          assert.equal(typeof (JSON.parse((await readBody(res)).toString('utf8')) as { min_length: number }).min_length, 'number');
          // The keep-alive connection must not hold the drain open: with a drain timeout far longer than the
          // helper's one-minute wait, a server stuck on it would be killed and not exit 0.
          assert.deepEqual(await server.waitForExit(), { code: 0, signal: null });
        } finally {
          agent.destroy();
          await blocker.end();
        }
        await assertReleased(kind, database);
      });
    }

    it('SIGTERM while answers are still being written: every one arrives whole with 200, then the process exits 0', async () => {
      server = await startServer({ env: { ...database.env, SVC_LOG_LEVEL: 'info', SVC_SHUTDOWN_TIMEOUT: '3600' } });
      // Eight pipelined requests for a 1 MB file on one connection that the client stops reading: more than
      // socket buffers hold, so answers are still queued in the server when the signal arrives.
      const pipeline = await startPipelinedGets(server.port, '/api/v1/auth/docs/redoc/redoc.standalone.js', 8);
      process.kill(server.pid, 'SIGTERM');
      await server.waitForOutput(SHUTTING_DOWN);
      const responses = await pipeline.readAll();
      assert.equal(responses.length, 8);
      for (const r of responses) {
        assert.equal(r.status, 200);
        assert.ok(r.declaredLength > 100_000);
        assert.equal(r.bodyLength, r.declaredLength);
      }
      assert.deepEqual(await server.waitForExit(), { code: 0, signal: null });
      await assertReleased(kind, database);
    });

    it('SIGTERM with logins and refreshes in flight on keep-alive connections: every one answers 200, readiness answers 503 '
      + 'before the listener closes, then the process exits 0', async () => {
      server = await startServer({ env: { ...database.env, SVC_LOG_LEVEL: 'info', SVC_SHUTDOWN_TIMEOUT: '3600' } });
      const port = server.port;
      const agent = new Agent({ keepAlive: true });
      const probe = new Agent({ keepAlive: true, maxSockets: 1 });
      const login = { email: 'drain@example.com', password: PASSWORD };
      try {
        // Many idle keep-alive connections, as a load balancer or an SDK's pool keeps them.
        const warm = Array.from({ length: 32 }, () => send(agent, `${server!.origin}/health/live`, 'GET', {}).answer);
        for (const r of await Promise.all(warm)) assert.equal(r.status, 200);
        assert.equal((await send(probe, `${server.origin}/health/ready`, 'GET', {}).answer).status, 200);
        // A login whose body is still arriving: the drain cannot end before it does, whatever the machine's speed.
        const slow = await startSlowRequest(port, '/api/v1/auth/login/email/', appHeaders(), login);
        const refreshTokens: string[] = [];
        for (let i = 0; i < 14; i++) {
          const r: Answer = await send(agent, `${server.apiUrl}login/email/`, 'POST', appHeaders(), login).answer;
          assert.equal(r.status, 200, r.body);
          refreshTokens.push((JSON.parse(r.body) as { refresh_token: string }).refresh_token);
        }

        // 28 logins (argon2id at production cost, so they wait on the hasher) and 14 refreshes, on the idle
        // connections and on new ones; SIGTERM once every request has been handed to the kernel.
        const requests = [
          ...Array.from({ length: 28 }, () => send(agent, `${server!.apiUrl}login/email/`, 'POST', appHeaders(), login)),
          ...refreshTokens.map((t) => send(agent, `${server!.apiUrl}refresh/`, 'POST', appHeaders(), { refresh_token: t })),
        ];
        await Promise.all(requests.map((r) => r.sent));
        process.kill(server.pid, 'SIGTERM');
        await server.waitForOutput(SHUTTING_DOWN);

        // Readiness turns 503 while the instance still answers on its open connections, and says why.
        const ready = await outcomeOf(send(probe, `${server.origin}/health/ready`, 'GET', {}).answer);
        const answers = await Promise.all(requests.map((r) => outcomeOf(r.answer)));
        // Once the listener is closed, a new connection is refused: nothing half-answered.
        const newConnection = await server.waitForOutput(LISTENER_CLOSED)
          .then(() => readinessOnNewConnection(port), () => 'the listener was not reported closed');
        const slowAnswer = await slow.finish();
        const exit = await server.waitForExit();
        assert.deepEqual({
          ready: readinessOf(ready), newConnection,
          failed: answers.flatMap((a, i) => (typeof a === 'object' && a.status === 200 ? [] : [`#${i}: ${summary(a)}`])),
          slow: { status: slowAnswer.status, closes: /\r\nconnection: close/i.test(slowAnswer.head) },
          exit, drained: server.stdout().includes(DRAINED),
        }, {
          ready: { status: 503, state: 'draining', connection: 'close' },
          newConnection: 'refused',
          failed: [],
          slow: { status: 200, closes: true },
          exit: { code: 0, signal: null }, drained: true,
        });
      } finally {
        agent.destroy();
        probe.destroy();
        await server.kill();
      }
      await assertReleased(kind, database);
    });

    it('SIGINT after a request: the answer was 200, the process exits 0 and the database is released', async () => {
      server = await startServer({ env: database.env });
      const res = await fetch(`${server.apiUrl}docs/schema/`, { headers: appHeaders() });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      assert.deepEqual(await server.stop('SIGINT'), { code: 0, signal: null });
      await assertReleased(kind, database);
    });

    it('SIGTERM with a request that never ends: past SVC_SHUTDOWN_TIMEOUT the process exits 1 and says what was left', async () => {
      server = await startServer({ env: { ...database.env, SVC_LOG_LEVEL: 'info', SVC_SHUTDOWN_TIMEOUT: '1' } });
      // Its body never arrives; the request timeout (60 s) is far beyond the shutdown timeout.
      await startSlowRequest(server.port, '/api/v1/auth/login/email/', appHeaders(), { email: 'drain@example.com', password: PASSWORD });
      await server.waitForOutput('"url":"/api/v1/auth/login/email/"');
      process.kill(server.pid, 'SIGTERM');
      assert.deepEqual(await server.waitForExit(), { code: 1, signal: null });
      assert.match(server.stdout(), /shutdown timed out after 1 s \(SVC_SHUTDOWN_TIMEOUT\)/);
      assert.match(server.stdout(), /"requests":1,/);
      assert.ok(!server.stdout().includes(DRAINED));
      await assertReleased(kind, database);
    });

    // Last: the delay is long, so the process is killed at the end.
    it('SVC_SHUTDOWN_DELAY: after SIGTERM, new connections are still served while readiness answers 503, and each answer '
      + 'closes its connection', async () => {
      server = await startServer({ env: { ...database.env, SVC_LOG_LEVEL: 'info', SVC_SHUTDOWN_DELAY: '300' } });
      process.kill(server.pid, 'SIGTERM');
      await server.waitForOutput(SHUTTING_DOWN);
      assert.match(server.stdout(), /"delay_seconds":300/);
      const ready = await readinessOnNewConnection(server.port);
      assert.deepEqual(readinessOf(ready), { status: 503, state: 'draining', connection: 'close' });
      const agent = new Agent({ keepAlive: true });
      try {
        const login = await send(agent, `${server.apiUrl}login/email/`, 'POST', appHeaders(),
          { email: 'drain@example.com', password: PASSWORD }).answer;
        assert.equal(login.status, 200, login.body);
        assert.equal(login.connection, 'close');
      } finally {
        agent.destroy();
      }
      assert.ok(!server.stdout().includes(LISTENER_CLOSED));
      await server.kill();
    });
  });
}
