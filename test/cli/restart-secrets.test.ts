import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { openPGlite } from '../../src/db/create-db.js';
import { base32Decode, totpAt } from '../../src/security/totp.js';
import { lines, runCli, startServer, type RunningServer } from '../helpers/cli.js';
import { WebhookReceiver } from '../http/webhooks/receiver.js';

/**
 * The issue "A newcomer's first hour works as written", as a newcomer meets it: `npm start` in a directory (its data in
 * ./data), two-factor authentication and a webhook set up, the server stopped and started again. Each start and command
 * is a real process, so the steps share one data directory and run in order.
 */
const OPERATOR = 'ops@example.com';
const PASSWORD = 'a long password for the operator 42!';
const NEW_KEY = 'the encryption key rotated to, at least thirty-two bytes';

/** Reads the secrets file as a test may: the values are only compared, never printed. */
const secretsOf = (cwd: string) => JSON.parse(readFileSync(join(cwd, 'data', 'debug-secrets.json'), 'utf8')) as
  { debug: boolean; jwt_secret_key: string; encryption_key: string };

describe('npm start restarted: sessions, TOTP, backup codes and webhook secrets survive; the CLI beside it works',
  { skip: process.env.TEST_SKIP_PGLITE === '1' ? 'TEST_SKIP_PGLITE=1: the PGlite pass runs these' : false }, () => {
    let cwd: string;
    const receiver = new WebhookReceiver();
    before(async () => {
      cwd = mkdtempSync(join(tmpdir(), 'gatehouse-newcomer-'));
      await receiver.start();
    });
    after(async () => {
      await receiver.stop();
      rmSync(cwd, { recursive: true, force: true });
    });

    // What the steps hand on.
    let app = { key: '', secret: '' };
    let session = { access_token: '', refresh_token: '' };
    let totpSecret = '';
    let backupCodes: string[] = [];
    let webhook = { id: 0, secret: '' };
    let kid = '';
    /** The last TOTP time step used: each code must be of a later one (replay refusal). */
    let lastStep = 0;

    /** A code of a step after the last one used, within the window of ±1 step; waits for the next step when needed. */
    async function nextCode(): Promise<string> {
      for (;;) {
        const step = Math.floor(Date.now() / 30_000);
        const use = Math.max(step, lastStep + 1);
        if (use <= step + 1) { lastStep = use; return totpAt(base32Decode(totpSecret), use); }
        await sleep((step + 1) * 30_000 - Date.now() + 100);
      }
    }

    const call = async (server: RunningServer, method: string, path: string, body?: object, token?: string) => {
      const res = await fetch(`${server.apiUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-access-key': app.key, 'x-access-secret': app.secret,
          ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: await res.json() as Record<string, unknown> & { code?: string } };
    };
    const login = (server: RunningServer, totp_code?: string) =>
      call(server, 'POST', 'login/email/', { email: OPERATOR, password: PASSWORD, ...(totp_code ? { totp_code } : {}) });

    /** The webhook's test ping, as the receiver verifies it with the secret given at creation. */
    async function pingVerifies(server: RunningServer, token: string): Promise<void> {
      receiver.requests = [];
      assert.equal((await call(server, 'POST', `webhooks/${webhook.id}/test/`, undefined, token)).status, 202);
      for (let i = 0; i < 100 && receiver.requests.length === 0; i++) await sleep(100);
      const [ping] = receiver.verified(webhook.secret);
      assert.equal(ping?.type, 'webhook.test', 'a delivery signed with the secret given at creation');
    }

    /** `npm start`, run from the directory: the data in ./data. */
    const start = () => startServer({ cwd, env: { SVC_DATA_DIR: undefined } }, ['start']);
    /** A command beside it, as the README shows them: without SVC_DEBUG. */
    const beside = (args: string[], input?: string) => runCli(args, { cwd, input, env: { SVC_DEBUG: undefined, SVC_DATA_DIR: undefined } });

    it('the first start generates the secrets once into ./data/debug-secrets.json (0600), and prints neither', async () => {
      const server = await start();
      try {
        await server.waitForOutput('Admin console:');
        const out = server.stdout();
        app = { key: /X-Access-Key: +(\S+)/.exec(out)![1]!, secret: /X-Access-Secret: +(\S+)/.exec(out)![1]! };
        assert.match(out, /Debug secrets: \S+debug-secrets\.json \(generated now\)/);
        const secrets = secretsOf(cwd);
        assert.equal(secrets.debug, true);
        assert.equal(statSync(join(cwd, 'data', 'debug-secrets.json')).mode & 0o777, 0o600);
        for (const value of [secrets.jwt_secret_key, secrets.encryption_key]) {
          assert.ok(!server.stdout().includes(value) && !server.stderr().includes(value), 'a secret was printed');
        }
        assert.doesNotMatch(server.stderr(), /ephemeral/);
      } finally {
        assert.equal((await server.stop()).code, 0);
      }
    });

    it('commands beside it without SVC_DEBUG find its settings; serve says how to use them rather than going into debug mode', async () => {
      const created = await beside(['user', 'create', '--email', OPERATOR, '--password-stdin', '--role', 'admin', '--staff',
        '--verified', '--json'], PASSWORD);
      assert.equal(created.code, 0, created.stderr);
      const kids = [];
      for (let i = 0; i < 2; i++) {
        const listed = await beside(['keys', 'list', '--json']);
        assert.equal(listed.code, 0, listed.stderr);
        kids.push((JSON.parse(listed.stdout) as Array<{ kid: string; state: string }>).find((k) => k.state === 'active')!.kid);
      }
      assert.equal(kids[0], kids[1], 'the same key on every run');
      kid = kids[0]!;

      const serve = await runCli(['serve'], { cwd, env: { SVC_DEBUG: undefined, SVC_DATA_DIR: undefined, SVC_PORT: '0' } });
      assert.equal(serve.code, 1);
      assert.equal(lines(serve.stderr).length, 1, serve.stderr);
      assert.match(serve.stderr, /Missing setting SVC_JWT_SECRET_KEY: required outside debug mode .* holds the data of `npm start` in debug mode, whose secrets are in \S+debug-secrets\.json: run `npm start`, or set SVC_DEBUG=true to use them/);
    });

    it('second start: the operator sets up two-factor authentication and a webhook; tokens carry the key the CLI listed', async () => {
      const server = await start();
      try {
        const gate = await login(server);
        assert.equal(gate.status, 403, JSON.stringify(gate.body));
        assert.equal(gate.body.code, 'ADMIN_2FA_SETUP_REQUIRED');
        const setupToken = gate.body.access_token as string;
        const setup = await call(server, 'POST', '2fa/setup/', {}, setupToken);
        assert.equal(setup.status, 200, JSON.stringify(setup.body));
        totpSecret = setup.body.secret as string;
        backupCodes = setup.body.backup_codes as string[];
        assert.equal((await call(server, 'POST', '2fa/confirm/', { code: await nextCode() }, setupToken)).status, 200);

        const signedIn = await login(server, await nextCode());
        assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
        session = { access_token: signedIn.body.access_token as string, refresh_token: signedIn.body.refresh_token as string };
        const header = JSON.parse(Buffer.from(session.access_token.split('.')[0]!, 'base64url').toString()) as { kid: string };
        assert.equal(header.kid, kid);

        const created = await call(server, 'POST', 'webhooks/', { url: receiver.url, events: ['user.created'] }, session.access_token);
        assert.equal(created.status, 201, JSON.stringify(created.body));
        webhook = { id: (created.body.webhook as { id: number }).id, secret: created.body.secret as string };
        await pingVerifies(server, session.access_token);
      } finally {
        assert.equal((await server.stop()).code, 0);
      }
    });

    it('third start: the session, a TOTP code, a backup code and the webhook secret all still work; readiness is ok', async () => {
      const server = await start();
      try {
        assert.doesNotMatch(server.stdout(), /generated now/);
        assert.equal((await call(server, 'GET', 'me/', undefined, session.access_token)).status, 200, 'the access token');
        const refreshed = await call(server, 'POST', 'refresh/', { refresh_token: session.refresh_token });
        assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));

        const withTotp = await login(server, await nextCode());
        assert.equal(withTotp.status, 200, JSON.stringify(withTotp.body));
        const withBackup = await login(server, backupCodes.shift());
        assert.equal(withBackup.status, 200, JSON.stringify(withBackup.body));
        await pingVerifies(server, withTotp.body.access_token as string);

        const ready = await fetch(`${server.origin}/health/ready`);
        assert.equal(ready.status, 200);
        assert.equal(((await ready.json()) as { status: string }).status, 'ok');
      } finally {
        assert.equal((await server.stop()).code, 0);
      }
    });

    it('a wrong key stops the start with one line; a rotation re-seals everything, in the file too, and the next start uses it', async () => {
      const wrong = await runCli(['serve'], { cwd, env: { SVC_DATA_DIR: undefined, SVC_PORT: '0',
        SVC_ENCRYPTION_KEY: 'not the key that sealed any of it, 32 bytes+' } });
      assert.equal(wrong.code, 1);
      assert.equal(lines(wrong.stderr).length, 1, wrong.stderr);
      assert.match(wrong.stderr, /^gatehouse: Invalid setting SVC_ENCRYPTION_KEY: it cannot decrypt the secrets stored in the database \(TOTP secrets, backup codes, webhook secrets, signing keys\)/);

      const before = secretsOf(cwd);
      const rotated = await beside(['keys', 'rotate-encryption', '--to', NEW_KEY]);
      assert.equal(rotated.code, 0, rotated.stderr);
      const out = lines(rotated.stdout);
      assert.ok(out.includes('TOTP secrets: 1 re-sealed'), rotated.stdout);
      assert.ok(out.includes('Webhook secrets: 1 re-sealed'), rotated.stdout);
      assert.ok(out.includes('Backup-code key and check value: re-sealed'), rotated.stdout);
      assert.match(rotated.stdout, /debug-secrets\.json now holds the new key/);
      assert.ok(!rotated.stdout.includes(before.encryption_key), 'the old key was printed');
      const afterRotation = secretsOf(cwd);
      assert.deepEqual([afterRotation.jwt_secret_key, afterRotation.encryption_key], [before.jwt_secret_key, NEW_KEY]);
      // The old key no longer opens anything: --from it again is refused, and nothing changes.
      const again = await beside(['keys', 'rotate-encryption', '--from', before.encryption_key, '--to', `${NEW_KEY}, again`]);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /--from is not the key the stored secrets were sealed with: it does not open the check value; nothing was changed/);

      const server = await start();
      try {
        assert.equal((await login(server, await nextCode())).status, 200, 'a TOTP code after the rotation');
        const withBackup = await login(server, backupCodes.shift());
        assert.equal(withBackup.status, 200, 'a backup code after the rotation');
        await pingVerifies(server, withBackup.body.access_token as string);
      } finally {
        assert.equal((await server.stop()).code, 0);
      }
    });

    it('gatehouse user reset-2fa removes the second factor of a person who lost it, ends their sessions and is audited', async () => {
      const reset = await beside(['user', 'reset-2fa', OPERATOR]);
      assert.equal(reset.code, 0, reset.stderr);
      assert.match(reset.stdout, /^ops@example\.com: two-factor authentication reset, \d+ session\(s\) ended, a notice sent\./);
      const unknown = await beside(['user', 'reset-2fa', 'nobody@example.com']);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /user reset-2fa: no account has the email nobody@example\.com/);

      assert.ok(existsSync(join(cwd, 'data', 'pglite')));
      const database = await openPGlite(join(cwd, 'data'));
      try {
        const user = await database.db.selectFrom('users').select(['id', 'is_2fa_enabled']).where('email', '=', OPERATOR).executeTakeFirstOrThrow();
        assert.equal(user.is_2fa_enabled, false);
        const open = await database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).where('revoked_at', 'is', null)
          .execute();
        assert.deepEqual(open, []);
        const events = await database.db.selectFrom('audit_events').select(['event_type', 'details']).where('user_id', '=', user.id)
          .where('event_type', '=', '2fa_reset').execute();
        assert.equal(events.length, 1);
        assert.equal((events[0]!.details as { by: string }).by, 'command_line');
        const rotations = await database.db.selectFrom('audit_events').select('event_type').where('event_type', '=', 'encryption_key_rotated')
          .execute();
        assert.equal(rotations.length, 1);
      } finally {
        await database.close();
      }
    });
  });
