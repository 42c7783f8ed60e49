import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startServer, type RunningServer } from '../helpers/cli.js';
import { waitForLockWait } from '../helpers/pg-activity.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-db.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  accountRows, apiClient, assertUnavailable, assertWhole, createApplication, partialAccounts, SKIP_WITHOUT_POSTGRES as skip, sleep,
  subscribeToUserCreated, targetOf, throughProxy, type Answer, type ApiClient,
} from './helpers.js';

// A registration writes its account in one transaction: the user, its default role, its password history and its
// `user.created` event. When the connections to PostgreSQL drop under registrations, each one is all there or not
// there at all, and what the client was told matches.

describe('registrations while PostgreSQL is cut under them: nothing half-written', { skip }, () => {
  const DOMAIN = 'burst.example';
  let database: ScratchDatabase;
  let proxy: TcpProxy;
  let receiver: WebhookReceiver;
  let server: RunningServer;
  let api: ApiClient;

  before(async () => {
    database = await createScratchDatabase('postgres', { prepared: true });
    const app = await createApplication(database.env);
    proxy = await startTcpProxy(targetOf(database.env.SVC_DATABASE_URL!));
    receiver = await startWebhookReceiver();
    server = await startServer({ env: {
      SVC_DATABASE_URL: throughProxy(database.env.SVC_DATABASE_URL!, proxy),
      // Dozens of registrations from one address: the limits are not what is tested here.
      SVC_RATE_LIMITING_ENABLED: 'false',
      // Registration then writes a password history row too: one more table that must agree with `users`.
      SVC_PASSWORD_HISTORY: '5',
      // Registrations held on a lock must still be waiting when the connections drop, not cancelled first.
      SVC_DATABASE_STATEMENT_TIMEOUT: '120',
    } });
    api = apiClient(server, app);
    await subscribeToUserCreated(api, database.env, receiver.url);
  });
  after(async () => {
    await server?.kill();
    await proxy?.close();
    await receiver?.stop();
    await database?.drop();
  });

  // Nothing of the address in it (the password policy refuses that).
  const register = (email: string) => api.post('register/', { email, password: 'Lantern-Quiver-Pass-52d8' });
  const emailsOf = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${i}@${DOMAIN}`);
  const rowsOf = (emails: string[]) => database.inspect((db) => accountRows(db, emails));

  /** Registers until the answer is not a 503: the first attempts after a fault may meet a connection that died with it. */
  async function registerEventually(email: string): Promise<Answer> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await register(email);
      if (answer.status !== 503 || Date.now() > deadline) return answer;
      await sleep(200);
    }
  }

  it('registrations inside their transaction when the connections drop answer 503, leave no row, and succeed when retried', async () => {
    const emails = emailsOf('held', 6);
    const blocker = new pg.Client({ connectionString: database.env.SVC_DATABASE_URL });
    await blocker.connect();
    let answers: Answer[];
    try {
      await blocker.query('begin');
      // Each registration inserts its user and its password history, then waits here to add its role.
      await blocker.query('lock table user_roles in access exclusive mode');
      const pending = Promise.all(emails.map(register));
      await waitForLockWait(blocker, emails.length);
      await proxy.cut();
      answers = await pending;
      await blocker.query('rollback');
    } finally {
      await blocker.end();
    }
    for (const answer of answers) assertUnavailable(answer);
    assert.deepEqual([...(await rowsOf(emails)).keys()], [], 'a refused registration left an account');

    await proxy.restore();
    for (const email of emails) {
      const again = await registerEventually(email);
      assert.equal(again.status, 201, `${email}: ${JSON.stringify(again.body)}`);
    }
    const rows = await rowsOf(emails);
    for (const email of emails) assertWhole(email, rows.get(email));
  });

  it('a burst cut at whatever point each request is: every 201 is a whole account, every refusal a 503, none is partial', async () => {
    const emails = emailsOf('burst', 40);
    const queue = [...emails];
    const answers = new Map<string, Answer>();
    let outage: Promise<void> | undefined;
    const worker = async () => {
      for (let email = queue.shift(); email; email = queue.shift()) {
        answers.set(email, await register(email));
        // After the first answers the connections drop under the other workers' requests; they come back a second later.
        if (answers.size === 4) outage = proxy.cut().then(() => sleep(1000)).then(() => proxy.restore());
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    await outage;

    const rows = await rowsOf(emails);
    const refused = [...answers.values()].filter((a) => a.status !== 201);
    assert.ok(refused.length > 0, 'the cut refused some registrations');
    for (const [email, answer] of answers) {
      if (answer.status === 201) {
        assertWhole(email, rows.get(email));
        assert.equal(String(rows.get(email)!.id), (answer.body.user as { id: string }).id);
        continue;
      }
      assertUnavailable(answer);
      // A COMMIT that reached PostgreSQL just before the cut loses only its acknowledgement: the account is there, whole.
      if (rows.has(email)) assertWhole(email, rows.get(email));
    }
    assert.deepEqual(await database.inspect((db) => partialAccounts(db, DOMAIN)), []);
  });
});
