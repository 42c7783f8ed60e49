import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import { clearInbox, lastEmailCode } from '../otp/helpers.js';

const BREACHED = 'violet submarine leaked';
const PADDED_ONLY = 'violet submarine padded';
const SAFE = 'violet submarine orchestra';
const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex').toUpperCase();

interface Seen { url: string; headers: IncomingHttpHeaders; body: string }

/**
 * A loopback stand-in for the k-anonymity range API: it lists BREACHED with a count, PADDED_ONLY as a padding
 * line (count 0), and padding noise, and records every request it gets.
 */
async function startRangeApi(mode: { value: 'answer' | 'fail' | 'hang' }) {
  const seen: Seen[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      if (mode.value === 'fail') { res.writeHead(503).end(); return; }
      if (mode.value === 'hang') { hanging.add(res); return; }
      const prefix = (req.url ?? '').split('/').at(-1) ?? '';
      const lines = Array.from({ length: 20 }, (_, i) => `${createHash('sha1').update(`noise${i}`).digest('hex').toUpperCase().slice(5)}:${i + 1}`);
      for (const [password, count] of [[BREACHED, 4711], [PADDED_ONLY, 0]] as const) {
        if (sha1(password).startsWith(prefix)) lines.push(`${sha1(password).slice(5)}:${count}`);
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    for (const res of hanging) res.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url, seen, close };
}

describe('breach check against a range API', () => {
  const mode = { value: 'answer' as 'answer' | 'fail' | 'hang' };
  let api: Awaited<ReturnType<typeof startRangeApi>>;
  before(async () => { api = await startRangeApi(mode); });
  beforeEach(() => {
    mode.value = 'answer';
    api.seen.length = 0;
  });
  const t = useTestApp(() => ({ env: { SVC_BREACH_CHECK_ENABLED: 'true', SVC_BREACH_CHECK_API_URL: api.url } }));
  beforeEach(() => { clearInbox(t); });
  after(async () => { await api.close(); });

  const register = (email: string, password: string) => t.api({ method: 'POST', path: 'register/', payload: { email, password } });

  it('refuses a listed password at registration with 400 PASSWORD_BREACHED', async () => {
    assertError(await register('ann@example.com', BREACHED), 400, 'PASSWORD_BREACHED');
    const users = await t.container.db.selectFrom('users').select('id').where('email', '=', 'ann@example.com').execute();
    assert.equal(users.length, 0);
  });

  it('sends only the 5-hex SHA-1 prefix, with Add-Padding, and nothing else about the password', async () => {
    for (const password of [BREACHED, SAFE, PADDED_ONLY]) await register(`u${api.seen.length}@example.com`, password);
    assert.equal(api.seen.length, 3);
    for (const [i, password] of [BREACHED, SAFE, PADDED_ONLY].entries()) {
      const req = api.seen[i]!;
      assert.match(req.url, /^\/range\/[0-9A-F]{5}$/);
      assert.equal(req.url, `/range/${sha1(password).slice(0, 5)}`);
      assert.equal(req.headers['add-padding'], 'true');
      assert.equal(req.body, '');
      const everything = JSON.stringify(req).toUpperCase();
      assert.ok(!everything.includes(sha1(password).slice(5, 15)), 'no part of the hash beyond the prefix');
      assert.ok(!everything.includes(password.toUpperCase()), 'never the password');
    }
  });

  it('accepts a password that only appears as a padding line (count 0)', async () => {
    assert.equal((await register('ann@example.com', PADDED_ONLY)).statusCode, 201);
  });

  it('refuses a listed password on change and reset, and reports password_safe when the API vouched for it', async () => {
    const user = await createUser(t, { email: 'ann@example.com' });
    const { access_token: token } = await signIn(t, user);
    assertError(await t.api({ method: 'POST', path: 'password/change/', token, payload: { current_password: user.password, new_password: BREACHED } }),
      400, 'PASSWORD_BREACHED');
    assert.equal((await t.api({ method: 'POST', path: 'password/reset/request/', payload: { email: 'ann@example.com' } })).statusCode, 200);
    const code = await lastEmailCode(t, 'ann@example.com');
    const reset = (new_password: string) => t.api({ method: 'POST', path: 'password/reset/confirm/',
      payload: { email: 'ann@example.com', otp_code: code, new_password } });
    assertError(await reset(BREACHED), 400, 'PASSWORD_BREACHED');
    const ok = await reset(SAFE);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().password_safe, true);
  });

  it('falls back to the local list when the API fails, so an uncommon password passes and a common one does not', async () => {
    mode.value = 'fail';
    assert.equal((await register('ann@example.com', BREACHED)).statusCode, 201);
    const common = await register('bob@example.com', 'password1234');
    assert.equal(common.statusCode, 400);
    assert.equal(common.json().code, 'VALIDATION_ERROR');
  });

  it('gives up on an API that does not answer and uses the local list', async () => {
    mode.value = 'hang';
    const res = await register('ann@example.com', SAFE);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(api.seen.length, 1);
  });
});

describe('breach check switched off (SVC_BREACH_CHECK_ENABLED=false)', () => {
  const mode = { value: 'answer' as const };
  let api: Awaited<ReturnType<typeof startRangeApi>>;
  before(async () => { api = await startRangeApi(mode); });
  const t = useTestApp(() => ({ env: { SVC_BREACH_CHECK_ENABLED: 'false', SVC_BREACH_CHECK_API_URL: api.url }, reset: false }));
  after(async () => { await api.close(); });

  it('never calls the API and still refuses common passwords', async () => {
    assert.equal((await t.api({ method: 'POST', path: 'register/', payload: { email: 'ann@example.com', password: BREACHED } })).statusCode, 201);
    assert.equal((await t.api({ method: 'POST', path: 'register/', payload: { email: 'bob@example.com', password: 'password1234' } })).statusCode, 400);
    assert.equal(api.seen.length, 0);
  });
});
