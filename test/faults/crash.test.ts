import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startServer, type RunningServer } from '../helpers/cli.js';
import { waitForLockWait } from '../helpers/pg-activity.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-db.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  accountRows, apiClient, assertWhole, createApplication, partialAccounts, SKIP_WITHOUT_POSTGRES as skip, sleep,
  subscribeToUserCreated, type Answer, type AppCredentials, type ApiClient,
} from './helpers.js';

// kill -9 gives the process no chance to finish anything: what it acknowledged must already be in PostgreSQL, and what
// it had only begun must not be there in part. A burst of registrations and refreshes is cut by SIGKILL, the server is
// started again on the same database, and every answer the clients got is checked against what the database holds.

const PASSWORD = 'Crash-Fault-Pass-61f3';
const DOMAIN = 'crash.example';
/** Answers to wait for before the kill: enough that the burst is well under way, with requests of both kinds in flight. */
const REGISTRATIONS_BEFORE_KILL = 8;
const REFRESHES_BEFORE_KILL = 24;
const REGISTERING_CLIENTS = 6;
const REFRESHING_CLIENTS = 8;

/**
 * What one request came back with: an answer, or none — `cutOff` when the connection died under it, otherwise it was
 * refused (sent after the kill).
 */
type Outcome = { answer: Answer } | { cutOff: boolean };

describe('gatehouse serve killed with SIGKILL during a burst of registrations and refreshes', { skip }, () => {
  let database: ScratchDatabase;
  let receiver: WebhookReceiver;
  let app: AppCredentials;
  let server: RunningServer;
  let api: ApiClient;
  const registrations = new Map<string, Outcome>();
  /** Per refreshing client: the refresh token of its last refresh answered 200, how many were, and how the last one ended. */
  const chains: Array<{ token: string; refreshed: number; last?: Outcome }> = [];
  /** An account whose refresh is held on a row lock when the process dies, and commits after: its answer is lost. */
  let held: { userId: number; token: string; outcome?: Outcome };

  const serve = () => startServer({ env: {
    ...database.env,
    // The same secret after the restart, so access tokens issued before the kill still verify.
    SVC_JWT_SECRET_KEY: 'jwt-secret-crash-faults-0123456789abcdef',
    // Dozens of requests from one address: the limits are not what is tested here.
    SVC_RATE_LIMITING_ENABLED: 'false',
    // Registration then writes a password history row too (the development preset keeps none).
    SVC_PASSWORD_HISTORY: '5',
    // Each refresh retires its token and answers a new one (the development preset keeps the token).
    SVC_REFRESH_TOKEN_ROTATION: 'true',
    // A client whose refresh answer was lost presents its token again; the grace window that returns the same successor
    // must cover the restart (minutes at most), not only a retry a few seconds later.
    SVC_REFRESH_TOKEN_REUSE_GRACE: '600',
    // The held refresh must still be waiting on its lock when the process dies, not cancelled first.
    SVC_DATABASE_STATEMENT_TIMEOUT: '120',
  } });

  before(async () => {
    database = await createScratchDatabase('postgres', { prepared: true });
    app = await createApplication(database.env);
    receiver = await startWebhookReceiver();
    server = await serve();
    api = apiClient(server, app);
    // Registration then writes a `user.created` event in its transaction: one more row that must agree with `users`.
    await subscribeToUserCreated(api, database.env, receiver.url);
    for (let i = 0; i < REFRESHING_CLIENTS; i++) {
      const registered = await api.post('register/', { email: `chain-${i}@${DOMAIN}`, password: PASSWORD, login: true });
      assert.equal(registered.status, 201, JSON.stringify(registered.body));
      chains.push({ token: registered.body.refresh_token as string, refreshed: 0 });
    }
    const registered = await api.post('register/', { email: `held@${DOMAIN}`, password: PASSWORD, login: true });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    held = { userId: Number((registered.body.user as { id: string }).id), token: registered.body.refresh_token as string };
  });
  after(async () => {
    await server?.kill();
    await receiver?.stop();
    await database?.drop();
  });

  /** `call`, with a connection that is refused or dies under it reported rather than thrown. */
  const outcomeOf = (call: Promise<Answer>): Promise<Outcome> => call.then((answer) => ({ answer }),
    (err: Error) => ({ cutOff: (err.cause as { code?: string } | undefined)?.code !== 'ECONNREFUSED' }));
  const answered = (o: Outcome | undefined): o is { answer: Answer } => Boolean(o && 'answer' in o);
  const acknowledged = () => [...registrations.values()].filter((o) => answered(o) && o.answer.status === 201).length;

  it('the burst: registrations and refreshes answer until the kill, and some are cut off mid-request', async () => {
    let killed = false;
    let next = 0;
    const register = async () => {
      while (!killed) {
        const email = `burst-${next++}@${DOMAIN}`;
        const outcome = await outcomeOf(api.post('register/', { email, password: PASSWORD, login: true }));
        registrations.set(email, outcome);
        if (!answered(outcome)) return;
        assert.equal(outcome.answer.status, 201, JSON.stringify(outcome.answer.body));
      }
    };
    const refresh = async (chain: (typeof chains)[number]) => {
      while (!killed) {
        const outcome = await outcomeOf(api.post('refresh/', { refresh_token: chain.token }));
        chain.last = outcome;
        if (!answered(outcome)) return;
        assert.equal(outcome.answer.status, 200, JSON.stringify(outcome.answer.body));
        chain.token = outcome.answer.body.refresh_token as string;
        chain.refreshed++;
      }
    };
    // The held refresh waits on its token's row, locked here, when the process dies. (The watcher polls outside the
    // blocker's transaction, whose view of pg_stat_activity would stay as its first poll saw it.)
    const blocker = new pg.Client({ connectionString: database.env.SVC_DATABASE_URL });
    const watcher = new pg.Client({ connectionString: database.env.SVC_DATABASE_URL });
    await Promise.all([blocker.connect(), watcher.connect()]);
    try {
      await blocker.query('begin');
      await blocker.query('select id from refresh_tokens where user_id = $1 for update', [held.userId]);
      const heldRefresh = outcomeOf(api.post('refresh/', { refresh_token: held.token })).then((o) => { held.outcome = o; });
      await waitForLockWait(watcher);

      const clients = [...Array.from({ length: REGISTERING_CLIENTS }, register), ...chains.map(refresh)];
      const refreshes = () => chains.reduce((n, c) => n + c.refreshed, 0);
      while (acknowledged() < REGISTRATIONS_BEFORE_KILL || refreshes() < REFRESHES_BEFORE_KILL) await sleep(20);
      process.kill(server.pid, 'SIGKILL');
      assert.deepEqual(await server.exited, { code: null, signal: 'SIGKILL' });
      killed = true;
      await Promise.all([...clients, heldRefresh]);
      await blocker.query('rollback');
    } finally {
      await Promise.all([blocker.end(), watcher.end()]);
    }

    const unanswered = [...registrations.values(), ...chains.map((c) => c.last)].filter((o) => o && !answered(o));
    assert.ok(unanswered.some((o) => o && 'cutOff' in o && o.cutOff), 'requests were in flight when the process died');
    assert.deepEqual(held.outcome, { cutOff: true });
  });

  it('a statement the dead process left waiting commits on its own: the held refresh rotated its token, unanswered', async () => {
    // PostgreSQL runs the statement once the lock is free and notices the lost client only when it answers.
    const rotated = async () => (await database.inspect((db) => db.selectFrom('refresh_tokens').select('rotated_at')
      .where('user_id', '=', held.userId).execute())).filter((r) => r.rotated_at !== null).length;
    const deadline = Date.now() + 10_000;
    while (await rotated() === 0 && Date.now() < deadline) await sleep(100);
    assert.equal(await rotated(), 1, 'the held refresh committed its rotation');
  });

  it('restarted on the same database, every registration answered 201 is a whole account, and signed in', async () => {
    server = await serve();
    api = apiClient(server, app);
    const rows = await database.inspect((db) => accountRows(db, [...registrations.keys()]));
    for (const [email, outcome] of registrations) {
      if (!answered(outcome)) continue;
      assertWhole(email, rows.get(email));
      assert.equal(String(rows.get(email)!.id), (outcome.answer.body.user as { id: string }).id);
      // Its session was committed with it: the access token the answer carried still works.
      const me = await api.get('me/', outcome.answer.body.access_token as string);
      assert.equal(me.status, 200, `${email}: ${JSON.stringify(me.body)}`);
      assert.equal(me.body.email, email);
    }
  });

  it('a registration cut off by the kill left a whole account or none, and no account anywhere is partial', async () => {
    const cut = [...registrations].filter(([, o]) => !answered(o)).map(([email]) => email);
    assert.ok(cut.length > 0);
    const rows = await database.inspect((db) => accountRows(db, cut));
    // A COMMIT that reached PostgreSQL before the kill lost only its answer: the account is there, whole.
    for (const email of cut) if (rows.has(email)) assertWhole(email, rows.get(email));
    assert.deepEqual(await database.inspect((db) => partialAccounts(db, DOMAIN)), []);
    // Cut off before it committed, it registers now as if it never happened.
    for (const email of cut.filter((e) => !rows.has(e))) {
      const again = await api.post('register/', { email, password: PASSWORD });
      assert.equal(again.status, 201, `${email}: ${JSON.stringify(again.body)}`);
    }
  });

  it('the token of the refresh whose answer the kill lost still refreshes: the grace window returns the same successor', async () => {
    const first = await api.post('refresh/', { refresh_token: held.token });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const second = await api.post('refresh/', { refresh_token: first.body.refresh_token });
    assert.equal(second.status, 200, JSON.stringify(second.body));
  });

  it('the refresh token of every refresh answered 200 still refreshes after the restart, and its session goes on', async () => {
    for (const [i, chain] of chains.entries()) {
      // When the refresh cut off by the kill had rotated this token, the grace window answers with the same successor the
      // lost answer carried: the client holding only the acknowledged token loses nothing either way.
      const first = await api.post('refresh/', { refresh_token: chain.token });
      assert.equal(first.status, 200, `client ${i} (${chain.refreshed} refreshes acknowledged): ${JSON.stringify(first.body)}`);
      const second = await api.post('refresh/', { refresh_token: first.body.refresh_token });
      assert.equal(second.status, 200, `client ${i}, after the restart: ${JSON.stringify(second.body)}`);
      const me = await api.get('me/', second.body.access_token as string);
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.equal(me.body.email, `chain-${i}@${DOMAIN}`);
    }
  });
});
