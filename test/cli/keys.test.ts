import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { openRuntime } from '../../src/main.js';
import { lines, runCli, startServer, type CliResult } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';

const ENCRYPTION_KEY = 'an-encryption-key-for-the-keys-command-tests';
const EDDSA = { SVC_JWT_ALGORITHM: 'EdDSA', SVC_ENCRYPTION_KEY: ENCRYPTION_KEY };

/** Exit 1, nothing on stdout, one line on stderr matching `pattern`, no stack trace. */
function assertOneLineFailure(result: CliResult, pattern: RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, '');
  assert.equal(lines(result.stderr).length, 1, result.stderr);
  assert.doesNotMatch(result.stderr, /\n\s+at |BEGIN|PRIVATE KEY-----/);
  assert.match(result.stderr, pattern);
}

const pem = (pair: { privateKey: { export(o: object): string | Buffer } }) =>
  pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

describe('signing-key settings that stop start-up', () => {
  it('a malformed PEM, a key of another algorithm, a weak key or an unsupported algorithm: one line naming the setting', async () => {
    const memory = { SVC_DATA_DIR: 'memory://', SVC_ENCRYPTION_KEY: ENCRYPTION_KEY };
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ SVC_JWT_ALGORITHM: 'EdDSA', SVC_JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2Vw\n-----END PRIVATE KEY-----' },
        /Invalid setting SVC_JWT_PRIVATE_KEY: not a readable PEM private key/],
      [{ SVC_JWT_ALGORITHM: 'ES256', SVC_JWT_PRIVATE_KEY: pem(generateKeyPairSync('ed25519')) },
        /Invalid setting SVC_JWT_PRIVATE_KEY: ES256 needs an EC key on P-256 \(prime256v1\), not an Ed25519 key/],
      [{ SVC_JWT_ALGORITHM: 'RS256', SVC_JWT_PRIVATE_KEY: pem(generateKeyPairSync('rsa', { modulusLength: 1024 })) },
        /SVC_JWT_PRIVATE_KEY: RS256 needs an RSA key of at least 2048 bits, not 1024 \(too weak\)/],
      [{ SVC_JWT_ALGORITHM: 'HS384' }, /Invalid setting SVC_JWT_ALGORITHM="HS384": expected one of HS256, EdDSA, ES256, RS256/],
      [{ SVC_JWT_ALGORITHM: 'ES256', SVC_DEBUG: 'false', SVC_ENCRYPTION_KEY: '' },
        /Missing setting SVC_ENCRYPTION_KEY: required outside debug mode with SVC_JWT_ALGORITHM=ES256/],
    ];
    for (const [env, pattern] of cases) assertOneLineFailure(await runCli(['serve'], { env: { ...memory, ...env } }), pattern);
  });
});

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`gatehouse keys (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    const run = (args: string[], env: Record<string, string | undefined> = EDDSA) =>
      runCli(['keys', ...args], { env: { ...database.env, ...env } });
    let first: string;
    let second: string;

    before(async () => { database = await createScratchDatabase(kind, { prepared: true }); });
    after(async () => { await database?.drop(); });

    it('list says when no key exists yet', async () => {
      const result = await run(['list']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /No signing key yet/);
    });

    it('rotate creates the first key, then a new one while the previous one verifies until its last token expires', async () => {
      const created = await run(['rotate']);
      assert.equal(created.code, 0, created.stderr);
      first = /New signing key (\S+) \(EdDSA\) signs from now on/.exec(created.stdout)?.[1] ?? '';
      assert.ok(first, created.stdout);
      assert.doesNotMatch(created.stdout, /Previous key/);

      const rotated = await run(['rotate']);
      assert.equal(rotated.code, 0, rotated.stderr);
      second = /New signing key (\S+) \(EdDSA\)/.exec(rotated.stdout)?.[1] ?? '';
      assert.ok(second && second !== first, rotated.stdout);
      // Debug preset: access tokens live 3600 s; the key verifies 60 s longer.
      const until = /Previous key (\S+) keeps verifying until (\S+), then retires/.exec(rotated.stdout);
      assert.equal(until?.[1], first, rotated.stdout);
      const margin = new Date(until![2]!).getTime() - Date.now();
      assert.ok(margin > 3500_000 && margin <= 3660_000, `${margin} ms`);
    });

    it('list shows each key with its state, as a table and as JSON', async () => {
      const json = await run(['list', '--json']);
      assert.equal(json.code, 0, json.stderr);
      const keys = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
      assert.deepEqual(keys.map((k) => [k.kid, k.algorithm, k.state, k.source]),
        [[first, 'EdDSA', 'verifying', 'database'], [second, 'EdDSA', 'active', 'database']]);
      assert.equal(keys[1]!.verifies_until, null);
      assert.ok(!json.stdout.includes('v1.'), 'no sealed key material');

      const text = lines((await run(['list'])).stdout);
      assert.match(text[0]!, /^KID\s+ALGORITHM\s+STATE\s+SOURCE\s+CREATED\s+SIGNS UNTIL\s+VERIFIES UNTIL$/);
      assert.match(text[1]!, new RegExp(`^${first}\\s+EdDSA\\s+verifying\\s+database\\s+\\S+Z\\s+\\S+Z\\s+\\S+Z$`));
      assert.match(text[2]!, new RegExp(`^${second}\\s+EdDSA\\s+active\\s+database\\s+\\S+Z\\s+-\\s+-$`));
    });

    it('rotate refuses, in one line, keys it does not manage: the HS256 secret and SVC_JWT_PRIVATE_KEY', async () => {
      assertOneLineFailure(await run(['rotate'], { SVC_JWT_SECRET_KEY: 'k'.repeat(40) }),
        /keys rotate: SVC_JWT_ALGORITHM is HS256, which signs with SVC_JWT_SECRET_KEY/);
      assertOneLineFailure(await run(['rotate'], { ...EDDSA, SVC_JWT_PRIVATE_KEY: pem(generateKeyPairSync('ed25519')) }),
        /keys rotate: the signing key comes from SVC_JWT_PRIVATE_KEY and is not rotated by Gatehouse/);
      const hs = await run(['list', '--json'], { SVC_JWT_SECRET_KEY: 'k'.repeat(40) });
      assert.deepEqual((JSON.parse(hs.stdout) as Array<Record<string, unknown>>).map((k) => [k.algorithm, k.state, k.source]),
        [['HS256', 'active', 'secret']]);
    });

    it('outside debug, a server whose SVC_ENCRYPTION_KEY cannot open the stored key stops with one line', async () => {
      // Delivering backends: outside debug the console ones add a start-up warning each.
      const result = await runCli(['serve'], { env: { ...database.env, ...EDDSA, SVC_DEBUG: 'false',
        SVC_ENCRYPTION_KEY: `${ENCRYPTION_KEY}-another`, SVC_PORT: '0', SVC_LOG_LEVEL: 'silent',
        SVC_EMAIL_BACKEND: 'smtp', SVC_SMS_BACKEND: 'webhook', SVC_SMS_WEBHOOK_URL: 'http://127.0.0.1:9/sms' } });
      assert.equal(result.code, 1, result.stderr);
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      assert.match(result.stderr, new RegExp(`Invalid setting SVC_ENCRYPTION_KEY: it cannot decrypt the stored signing key ${second}`));
    });
  });
}

describe('gatehouse keys list names the keys that sign, by the kid tokens carry', () => {
  let database: ScratchDatabase;
  let app: { access_key: string; access_secret: string };
  const PASSWORD = 'Kid-lantern-harbor-42';
  before(async () => {
    database = await createScratchDatabase('pglite', { prepared: true });
    // One encryption key throughout: the start-up key check refuses a key other than the one the stored secrets use.
    database.env.SVC_ENCRYPTION_KEY = ENCRYPTION_KEY;
    const created = await runCli(['app', 'create', '--name', 'Kids', '--json'], { env: database.env });
    assert.equal(created.code, 0, created.stderr);
    app = JSON.parse(created.stdout) as typeof app;
    const user = await runCli(['user', 'create', '--email', 'kid@example.com', '--password-stdin', '--verified'],
      { env: database.env, input: PASSWORD });
    assert.equal(user.code, 0, user.stderr);
  });
  after(async () => { await database?.drop(); });

  /** A server on these settings: the kid of a token it issues and the kids it publishes; stopped before the CLI runs. */
  async function issued(env: Record<string, string>): Promise<{ kid: string; published: string[] }> {
    const server = await startServer({ env: { ...database.env, ...env } });
    try {
      const res = await fetch(`${server.apiUrl}login/email/`, { method: 'POST', body: JSON.stringify({ email: 'kid@example.com', password: PASSWORD }),
        headers: { 'x-access-key': app.access_key, 'x-access-secret': app.access_secret, 'content-type': 'application/json' } });
      const body = await res.json() as { access_token: string };
      assert.equal(res.status, 200, JSON.stringify(body));
      const header = JSON.parse(Buffer.from(body.access_token.split('.')[0]!, 'base64url').toString()) as { kid: string };
      const jwks = await (await fetch(`${server.origin}/.well-known/jwks.json`)).json() as { keys: Array<{ kid: string }> };
      return { kid: header.kid, published: jwks.keys.map((k) => k.kid) };
    } finally {
      await server.stop();
    }
  }
  const listed = async (env: Record<string, string | undefined>) => {
    const result = await runCli(['keys', 'list', '--json'], { env: { ...database.env, ...env } });
    assert.equal(result.code, 0, result.stderr);
    return { keys: JSON.parse(result.stdout) as Array<{ kid: string; state: string }>, stderr: result.stderr };
  };

  it('HS256: the kid of the server\'s tokens; without SVC_JWT_SECRET_KEY, that of the debug secret kept in the data directory', async () => {
    // The authorization server, on in debug, would publish its own RS256 key (docs/resource-servers.md "The OpenID
    // Provider's keys"): off here, the key set holds the access keys alone.
    const NO_OAUTH = { SVC_OAUTH_ENABLED: 'false' };
    const HS = { ...NO_OAUTH, SVC_JWT_SECRET_KEY: 's'.repeat(40) };
    const { kid, published } = await issued(HS);
    assert.deepEqual(published, [], 'a symmetric key is never published');
    assert.deepEqual((await listed(HS)).keys.map((k) => [k.kid, k.state]), [[kid, 'active']]);

    // Debug mode keeps its generated secret with the data (docs/decisions.md "Debug secrets"): every process signs with it.
    const kept = await issued(NO_OAUTH);
    assert.notEqual(kept.kid, kid);
    assert.deepEqual((await listed(NO_OAUTH)).keys.map((k) => [k.kid, k.state]), [[kept.kid, 'active']]);
  });

  it('EdDSA: the active key is the kid of the server\'s tokens, and every published key is listed', async () => {
    const { kid, published } = await issued(EDDSA);
    const { keys } = await listed(EDDSA);
    assert.equal(keys.find((k) => k.state === 'active')?.kid, kid);
    assert.ok(published.includes(kid), JSON.stringify(published));
    for (const p of published) assert.ok(keys.some((k) => k.kid === p), `${p} is listed`);
  });
});

describe('a rotation by the command reaches a running server within a second (postgres)', {
  skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set (the embedded database admits one process)',
}, () => {
  let database: ScratchDatabase;
  before(async () => { database = await createScratchDatabase('postgres', { prepared: true }); });
  after(async () => { await database?.drop(); });

  const redisUrl = process.env.TEST_REDIS_URL;
  const variants = [
    { name: 'without Redis (announced through PostgreSQL\'s NOTIFY)', env: {} },
    ...(redisUrl ? [{
      name: 'with Redis (the command announces it)',
      env: { SVC_REDIS_URL: redisUrl, SVC_REDIS_KEY_PREFIX: `cli-keys:${process.pid}:` },
    }] : []),
  ];
  for (const variant of variants) it(`the server publishes the new key without a restart, ${variant.name}`, async () => {
    const env = { ...database.env, ...EDDSA, ...variant.env };
    const server = await startServer({ env });
    try {
      const jwks = async () => ((await (await fetch(`${server.origin}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> })
        .keys.map((k) => k.kid);
      const [before] = await jwks();
      assert.ok(before, 'the server created its key at start-up');
      const rotated = await runCli(['keys', 'rotate'], { env });
      assert.equal(rotated.code, 0, rotated.stderr);
      assert.match(rotated.stdout, /were told and switch at once/);
      const kid = /New signing key (\S+)/.exec(rotated.stdout)![1]!;
      const deadline = Date.now() + 1000;
      let seen: string[] = [];
      while (Date.now() < deadline && seen[0] !== kid) {
        seen = await jwks();
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.deepEqual(seen.slice(0, 2), [kid, before]);
    } finally {
      await server.stop();
    }
  });
});

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`gatehouse keys and the OpenID Provider's own keys (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    const HS = { SVC_JWT_SECRET_KEY: 's'.repeat(40), SVC_ENCRYPTION_KEY: ENCRYPTION_KEY };
    const run = (args: string[], env: Record<string, string> = HS) => runCli(['keys', ...args], { env: { ...database.env, ...env } });

    before(async () => {
      database = await createScratchDatabase(kind, { prepared: true });
      // The authorization server asks for its keys (as a server with it on does): the first RS256 key is created then.
      const rt = await openRuntime({ ...database.env, ...HS, SVC_DEBUG: 'true', SVC_LOG_LEVEL: 'silent' }, { warn: () => undefined });
      try {
        await rt.container.services.keys.providerKeys();
      } finally {
        await rt.close();
      }
    });
    after(async () => { await database?.drop(); });

    it('rotate rotates the OpenID Provider\'s set: alone with HS256, after the access key with EdDSA', async () => {
      const [first] = JSON.parse((await run(['list', '--json'])).stdout).filter((k: { purpose: string }) => k.purpose === 'oauth')
        .map((k: { kid: string }) => k.kid) as string[];
      assert.ok(first);
      const alone = await run(['rotate']);
      assert.equal(alone.code, 0, alone.stderr);
      const second = /New OpenID Provider key (\S+) \(RS256\) signs from now on/.exec(alone.stdout)?.[1];
      assert.ok(second && second !== first, alone.stdout);
      assert.match(alone.stdout, new RegExp(`Previous key ${first} keeps verifying until \\S+, then retires`));
      assert.doesNotMatch(alone.stdout, /New signing key/);

      const both = await run(['rotate'], EDDSA);
      assert.equal(both.code, 0, both.stderr);
      assert.match(both.stdout, /New signing key \S+ \(EdDSA\) signs from now on/);
      assert.match(both.stdout, new RegExp(`New OpenID Provider key \\S+ \\(RS256\\) signs from now on\\.\\nPrevious key ${second} `));
    });

    it('list shows each key\'s purpose, as JSON and as a column of the table', async () => {
      const json = await run(['list', '--json'], EDDSA);
      assert.equal(json.code, 0, json.stderr);
      const keys = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
      assert.deepEqual(keys.map((k) => [k.algorithm, k.purpose, k.state]),
        [['EdDSA', 'access', 'active'], ['RS256', 'oauth', 'verifying'], ['RS256', 'oauth', 'verifying'], ['RS256', 'oauth', 'active']]);
      const text = lines((await run(['list'], EDDSA)).stdout);
      assert.match(text[0]!, /^KID\s+ALGORITHM\s+PURPOSE\s+STATE\s+SOURCE\s+CREATED\s+SIGNS UNTIL\s+VERIFIES UNTIL$/);
      assert.match(text[1]!, /^\S+\s+EdDSA\s+access\s+active\s+database\s/);
      assert.match(text[4]!, /^\S+\s+RS256\s+oauth\s+active\s+database\s/);
    });
  });
}
