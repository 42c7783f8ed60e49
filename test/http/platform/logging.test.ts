import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { before, describe, it } from 'node:test';
import { Type } from 'typebox';
import type { RoutePlugin } from '../../../src/http/route-plugin.js';
import { Body } from '../../../src/http/schema.js';
import { useTestApp } from '../../helpers/test-app.js';

const SecretBody = Body({
  email: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  otp_code: Type.Optional(Type.String()),
  refresh_token: Type.Optional(Type.String()),
});

const testRoutes: RoutePlugin = async (app) => {
  app.post('/test/sign-in/', { schema: { body: SecretBody, response: { 200: Type.Object({ ok: Type.Boolean() }) } } },
    async () => ({ ok: true }));
  app.post('/test/sign-in-crash/', { schema: { body: SecretBody } }, async () => {
    throw new Error('storage failed while signing in');
  });
  app.get('/test/verify/', async () => ({ ok: true }));
};

// Distinct markers, so a hit anywhere in the output names the leak.
const SECRETS = {
  bearer: 'eyJhbGciOiJIUzI1NiJ9.bearer-token-5c1e.sig',
  appSecretWrong: 'wrong-app-secret-91b4',
  cookie: 'cookie-refresh-7d2a',
  password: 'Correct-Horse-Battery-3e8f',
  otp: 'otp-code-4829',
  refresh: 'refresh-token-0a6c',
  queryToken: 'query-token-b7e5',
  queryCode: 'query-code-19f0',
};

describe('JSON logs never contain secrets', () => {
  const output: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) { output.push(chunk.toString()); done(); },
  });

  const t = useTestApp({ apiRoutes: [testRoutes], logStream, env: { SVC_LOG_LEVEL: 'info' }, reset: false });
  before(async () => {
    const secretHeaders = { authorization: `Bearer ${SECRETS.bearer}`, cookie: `refresh_token=${SECRETS.cookie}; theme=dark` };
    const body = { email: 'ada@example.com', password: SECRETS.password, otp_code: SECRETS.otp, refresh_token: SECRETS.refresh };
    const requests = [
      t.api({ method: 'POST', path: 'test/sign-in/', payload: body, headers: { ...secretHeaders, 'x-request-id': 'log-ok' } }),
      t.api({ method: 'POST', path: 'test/sign-in/', payload: { ...body, extra: SECRETS.password }, headers: { 'x-request-id': 'log-invalid' } }),
      t.api({
        method: 'POST', path: 'test/sign-in/', payload: `{"password":"${SECRETS.password}","otp_code":`,
        headers: { 'content-type': 'application/json', 'x-request-id': 'log-malformed' },
      }),
      t.api({ method: 'POST', path: 'test/sign-in-crash/', payload: body, headers: { ...secretHeaders, 'x-request-id': 'log-crash' } }),
      t.api({ method: 'GET', path: `test/verify/?token=${SECRETS.queryToken}&code=${SECRETS.queryCode}&next=%2Fhome`, headers: { 'x-request-id': 'log-query' } }),
      t.api({
        method: 'GET', path: 'test/verify/', appAuth: false,
        headers: { 'x-access-key': t.credentials.access_key, 'x-access-secret': SECRETS.appSecretWrong, 'x-request-id': 'log-bad-app' },
      }),
    ];
    const statuses = [];
    for (const r of requests) statuses.push((await r).statusCode);
    assert.deepEqual(statuses, [200, 400, 400, 500, 200, 401]);
    await new Promise((resolve) => setImmediate(resolve));
  });

  const entries = () => output.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

  it('writes one JSON object per line, each carrying its request id', () => {
    const ids = new Set(entries().map((e) => e.reqId));
    for (const id of ['log-ok', 'log-invalid', 'log-malformed', 'log-crash', 'log-query', 'log-bad-app']) assert.ok(ids.has(id), id);
  });

  it('contains no Authorization token, application secret, cookie, password, code or refresh token', () => {
    const all = output.join('');
    assert.ok(all.length > 0);
    for (const [name, value] of Object.entries(SECRETS)) assert.equal(all.includes(value), false, `${name} leaked`);
    assert.equal(all.includes(t.credentials.access_secret), false, 'application secret leaked');
  });

  it('logs the URL with secret query values masked and other values kept', () => {
    const incoming = entries().find((e) => e.reqId === 'log-query' && e.msg === 'incoming request');
    const url = (incoming?.req as { url?: string } | undefined)?.url ?? '';
    assert.match(url, /^\/api\/v1\/auth\/test\/verify\/\?/);
    const params = new URLSearchParams(url.split('?')[1]);
    assert.equal(params.get('token'), '[redacted]');
    assert.equal(params.get('code'), '[redacted]');
    assert.equal(params.get('next'), '/home');
  });

  it('logs an unhandled error at error level with its request id', () => {
    const errorLines = entries().filter((e) => e.reqId === 'log-crash' && e.level === 50);
    assert.equal(errorLines.length, 1);
    assert.match(JSON.stringify(errorLines[0]), /storage failed while signing in/);
  });
});
