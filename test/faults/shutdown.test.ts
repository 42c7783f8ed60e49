import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { Agent, get, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runCli, startServer, type RunningServer } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type DatabaseKind, type ScratchDatabase } from '../helpers/scratch-db.js';
import { waitForLockWait } from '../helpers/pg-activity.js';

type Credentials = { access_key: string; access_secret: string };
const SHUTTING_DOWN = 'shutting down: draining in-flight requests';

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

    it('SIGINT after a request: the answer was 200, the process exits 0 and the database is released', async () => {
      server = await startServer({ env: database.env });
      const res = await fetch(`${server.apiUrl}docs/schema/`, { headers: appHeaders() });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      assert.deepEqual(await server.stop('SIGINT'), { code: 0, signal: null });
      await assertReleased(kind, database);
    });
  });
}
