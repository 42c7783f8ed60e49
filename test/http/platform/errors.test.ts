import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type, type Static } from 'typebox';
import { AppError } from '../../../src/core/errors.js';
import { PageOf, PageQuery, pageRequest, toPage, type PageQueryInput } from '../../../src/core/pagination.js';
import type { RoutePlugin } from '../../../src/http/route-plugin.js';
import { Body } from '../../../src/http/schema.js';
import { useTestApp } from '../../helpers/test-app.js';

const EchoBody = Body({
  name: Type.String(),
  age: Type.Optional(Type.Integer()),
  tags: Type.Optional(Type.Array(Type.String())),
  address: Type.Optional(Body({ city: Type.String(), zip: Type.Optional(Type.Integer()) })),
});
const OptionalBody = Body({ note: Type.Optional(Type.String()) });

/** Routes that only exist to exercise the platform: body and query validation, paging, thrown errors. */
const testRoutes: RoutePlugin = async (app) => {
  app.post('/test/echo/', {
    schema: { body: EchoBody, response: { 200: Type.Object({ name: Type.String(), age: Type.Optional(Type.Integer()) }) } },
  }, async (req) => req.body as Static<typeof EchoBody>);
  app.post('/test/optional/', {
    schema: { body: OptionalBody, response: { 200: Type.Object({ keys: Type.Array(Type.String()) }) } },
  }, async (req) => ({ keys: Object.keys(req.body as object) }));
  app.get('/test/items/', {
    schema: { querystring: PageQuery, response: { 200: PageOf(Type.Integer()) } },
  }, async (req) => {
    const page = pageRequest(req.query as PageQueryInput);
    const all = Array.from({ length: 250 }, (_, i) => i + 1);
    return toPage(all.slice(page.offset, page.offset + page.pageSize), all.length, page, req.url);
  });
  app.get('/test/crash/', async () => {
    throw new Error('connect ECONNREFUSED 10.0.0.7:5432 (internal-detail-7f3a)');
  });
  app.get('/test/throw-nothing/', async () => {
    throw undefined;
  });
  app.get('/test/locked/', async () => {
    throw new AppError('ACCOUNT_LOCKED', { extra: { retry_after: 42 } });
  });
};

const VALIDATION = { error: 'Validation error', code: 'VALIDATION_ERROR' } as const;
const json = { 'content-type': 'application/json' };

describe('error shapes and bad input', () => {
  const t = useTestApp({ apiRoutes: [testRoutes], reset: false });

  describe('routing', () => {
    it('answers 404 NOT_FOUND for an unknown route under the API prefix and at the root', async () => {
      for (const res of [await t.api({ method: 'GET', path: 'no-such-route/' }), await t.app.inject({ method: 'GET', url: '/no-such-route' })]) {
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), { error: 'Not found', code: 'NOT_FOUND' });
      }
    });

    it('answers 405 with an Allow header for a known path with another method', async () => {
      const res = await t.api({ method: 'DELETE', path: 'test/echo/' });
      assert.equal(res.statusCode, 405);
      assert.equal(res.headers.allow, 'POST');
      assert.deepEqual(res.json(), { error: 'Method not allowed', code: 'METHOD_NOT_ALLOWED' });

      const onGet = await t.api({ method: 'PUT', path: 'test/items/' });
      assert.equal(onGet.statusCode, 405);
      assert.deepEqual(onGet.headers.allow?.toString().split(', ').sort(), ['GET', 'HEAD']);
    });

    it('answers 405 (not 404) for a known path requested without its trailing slash', async () => {
      const res = await t.api({ method: 'GET', path: 'test/echo' });
      assert.equal(res.statusCode, 405);
      assert.equal(res.headers.allow, 'POST');
    });
  });

  describe('body transport', () => {
    it('answers 413 PAYLOAD_TOO_LARGE for a body over 64 KiB and accepts one of exactly 64 KiB', async () => {
      const sized = (bytes: number) => {
        const shell = '{"name":""}';
        return `{"name":"${'x'.repeat(bytes - shell.length)}"}`;
      };
      const atLimit = await t.api({ method: 'POST', path: 'test/echo/', payload: sized(65536), headers: json });
      assert.equal(atLimit.statusCode, 200);
      const over = await t.api({ method: 'POST', path: 'test/echo/', payload: sized(65537), headers: json });
      assert.equal(over.statusCode, 413);
      assert.deepEqual(over.json(), { error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
    });

    it('answers 415 UNSUPPORTED_MEDIA_TYPE for text/plain, form-urlencoded and multipart bodies', async () => {
      for (const [type, payload] of [['text/plain', '{"name":"a"}'], ['application/x-www-form-urlencoded', 'name=a'],
        ['multipart/form-data; boundary=x', '--x\r\n\r\nname\r\n--x--']] as const) {
        const res = await t.api({ method: 'POST', path: 'test/echo/', payload, headers: { 'content-type': type } });
        assert.equal(res.statusCode, 415, type);
        assert.deepEqual(res.json(), { error: 'Request body must be JSON (Content-Type: application/json)', code: 'UNSUPPORTED_MEDIA_TYPE' });
      }
    });

    it('accepts JSON with a charset parameter and +json media types', async () => {
      for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
        const res = await t.api({ method: 'POST', path: 'test/echo/', payload: '{"name":"a"}', headers: { 'content-type': type } });
        assert.equal(res.statusCode, 200, type);
        assert.deepEqual(res.json(), { name: 'a' });
      }
    });

    it('answers 400 in the validation shape with non_field_errors for malformed JSON', async () => {
      for (const payload of ['{"name":', '{name: "a"}', "{'name':'a'}", '{"name":"a",}', '{"constructor":x}', '{"prototype":}']) {
        const res = await t.api({ method: 'POST', path: 'test/echo/', payload, headers: json });
        assert.equal(res.statusCode, 400, payload);
        assert.deepEqual(res.json(), { ...VALIDATION, details: { non_field_errors: ['Malformed JSON body.'] } });
      }
    });

    it('refuses text containing NUL (which PostgreSQL cannot store) with 400, but accepts an escaped backslash before u0000', async () => {
      for (const payload of [String.raw`{"name":"a\u0000b"}`, String.raw`{"name":"a\\\u0000"}`, String.raw`{"\u0000":"x","name":"a"}`]) {
        const res = await t.api({ method: 'POST', path: 'test/echo/', payload, headers: json });
        assert.equal(res.statusCode, 400, payload);
        assert.deepEqual(res.json(), { ...VALIDATION, details: { non_field_errors: ['Text cannot contain the NUL character.'] } });
      }
      const ok = await t.api({ method: 'POST', path: 'test/echo/', payload: String.raw`{"name":"a\\u0000"}`, headers: json });
      assert.equal(ok.statusCode, 200);
      assert.deepEqual(ok.json(), { name: String.raw`a\u0000` });
    });

    it('refuses a __proto__ key with 400 and leaves Object.prototype untouched', async () => {
      const payloads = [
        '{"name":"a","__proto__":{"polluted":"yes"}}',
        '{"name":"a","address":{"city":"x","__proto__":{"polluted":"yes"}}}',
        '{"name":"a","tags":[{"__proto__":{"polluted":"yes"}}]}',
      ];
      for (const payload of payloads) {
        const res = await t.api({ method: 'POST', path: 'test/echo/', payload, headers: json });
        assert.equal(res.statusCode, 400, payload);
        assert.deepEqual(res.json(), {
          ...VALIDATION, details: { non_field_errors: ['JSON body contains a forbidden key (__proto__ or constructor.prototype).'] },
        });
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).filter((k) => k === 'polluted'), []);
    });

    it('refuses a constructor.prototype key with 400 and leaves Object.prototype untouched', async () => {
      const payload = '{"name":"a","constructor":{"prototype":{"polluted":"yes"}}}';
      const res = await t.api({ method: 'POST', path: 'test/echo/', payload, headers: json });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), {
        ...VALIDATION, details: { non_field_errors: ['JSON body contains a forbidden key (__proto__ or constructor.prototype).'] },
      });
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false);
    });

    it('ignores __proto__ and constructor query parameters without changing Object.prototype', async () => {
      const res = await t.api({ method: 'GET', path: 'test/items/?__proto__[polluted]=yes&constructor[prototype][polluted]=yes&page=2' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().page, 2);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    it('reads an empty JSON body as {}: all-optional fields answer 200, a required field answers 400 naming it', async () => {
      const optional = await t.api({ method: 'POST', path: 'test/optional/', payload: '', headers: json });
      assert.equal(optional.statusCode, 200);
      assert.deepEqual(optional.json(), { keys: [] });
      const required = await t.api({ method: 'POST', path: 'test/echo/', payload: '', headers: json });
      assert.equal(required.statusCode, 400);
      assert.deepEqual(required.json(), { ...VALIDATION, details: { name: ['This field is required.'] } });
    });

    it('validates a body-less POST without a content type as {}', async () => {
      const optional = await t.api({ method: 'POST', path: 'test/optional/' });
      assert.equal(optional.statusCode, 200);
      assert.deepEqual(optional.json(), { keys: [] });
      const required = await t.api({ method: 'POST', path: 'test/echo/' });
      assert.equal(required.statusCode, 400);
      assert.deepEqual(required.json(), { ...VALIDATION, details: { name: ['This field is required.'] } });
    });

    it('answers 400 with non_field_errors when the JSON body is not an object', async () => {
      for (const payload of ['null', '[1,2]', '"name"', '42', `${'['.repeat(20000)}${']'.repeat(20000)}`]) {
        const res = await t.api({ method: 'POST', path: 'test/echo/', payload, headers: json });
        assert.equal(res.statusCode, 400, payload.slice(0, 10));
        assert.deepEqual(res.json(), { ...VALIDATION, details: { non_field_errors: ['Must be of type object.'] } });
      }
    });
  });

  describe('field validation', () => {
    it('names a missing required field', async () => {
      const res = await t.api({ method: 'POST', path: 'test/echo/', payload: { age: 3 } });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { ...VALIDATION, details: { name: ['This field is required.'] } });
    });

    it('refuses an unknown field on a write endpoint', async () => {
      const res = await t.api({ method: 'POST', path: 'test/echo/', payload: { name: 'a', is_superuser: true } });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { ...VALIDATION, details: { is_superuser: ['Unknown field.'] } });
    });

    it('does not coerce body types: number for string, string for number, array or object for a scalar', async () => {
      const cases: [unknown, Record<string, string[]>][] = [
        [{ name: 42 }, { name: ['Must be of type string.'] }],
        [{ name: 'a', age: '42' }, { age: ['Must be of type integer.'] }],
        [{ name: 'a', age: 4.5 }, { age: ['Must be of type integer.'] }],
        [{ name: ['a'] }, { name: ['Must be of type string.'] }],
        [{ name: { first: 'a' } }, { name: ['Must be of type string.'] }],
        [{ name: true }, { name: ['Must be of type string.'] }],
        [{ name: null }, { name: ['Must be of type string.'] }],
        [{ name: 'a', tags: 'x' }, { tags: ['Must be of type array.'] }],
      ];
      for (const [payload, details] of cases) {
        const res = await t.api({ method: 'POST', path: 'test/echo/', payload: payload as object });
        assert.equal(res.statusCode, 400, JSON.stringify(payload));
        assert.deepEqual(res.json(), { ...VALIDATION, details }, JSON.stringify(payload));
      }
    });

    it('reports every bad field at once', async () => {
      const res = await t.api({ method: 'POST', path: 'test/echo/', payload: { age: 'x', extra: 1 } });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), {
        ...VALIDATION,
        details: { name: ['This field is required.'], extra: ['Unknown field.'], age: ['Must be of type integer.'] },
      });
    });

    it('names nested and array-item fields with dotted paths', async () => {
      const res = await t.api({ method: 'POST', path: 'test/echo/', payload: { name: 'a', address: { zip: 'x', floor: 2 }, tags: ['ok', 7] } });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), {
        ...VALIDATION,
        details: {
          'address.city': ['This field is required.'],
          'address.floor': ['Unknown field.'],
          'address.zip': ['Must be of type integer.'],
          'tags.1': ['Must be of type string.'],
        },
      });
    });

    it('coerces query parameters: ?page=2 is the integer 2', async () => {
      const res = await t.api({ method: 'GET', path: 'test/items/?page=2&page_size=10' });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.page, 2);
      assert.equal(body.page_size, 10);
      assert.deepEqual(body.results, [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    });

    it('answers 400 naming page for a non-integer page', async () => {
      for (const page of ['abc', '1.5', '', '0']) {
        const res = await t.api({ method: 'GET', path: `test/items/?page=${page}` });
        assert.equal(res.statusCode, 400, page);
        assert.equal(res.json().code, 'VALIDATION_ERROR');
        assert.deepEqual(Object.keys(res.json().details), ['page'], page);
      }
    });
  });

  describe('paging', () => {
    it('answers count, next, previous, results, page, page_size and total_pages with a default page size of 20', async () => {
      const res = await t.api({ method: 'GET', path: 'test/items/' });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.count, 250);
      assert.equal(body.page, 1);
      assert.equal(body.page_size, 20);
      assert.equal(body.total_pages, 13);
      assert.equal(body.previous, null);
      assert.equal(body.next, '/api/v1/auth/test/items/?page=2&page_size=20');
      assert.equal(body.results.length, 20);
    });

    it('clamps page_size=1000 to 100', async () => {
      const res = await t.api({ method: 'GET', path: 'test/items/?page=2&page_size=1000' });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.page_size, 100);
      assert.equal(body.total_pages, 3);
      assert.equal(body.results.length, 100);
      assert.equal(body.results[0], 101);
      assert.equal(body.next, '/api/v1/auth/test/items/?page=3&page_size=100');
      assert.equal(body.previous, '/api/v1/auth/test/items/?page=1&page_size=100');
    });
  });

  describe('thrown errors', () => {
    it('answers 500 INTERNAL_ERROR for a plain Error, without its message or stack', async () => {
      const res = await t.api({ method: 'GET', path: 'test/crash/' });
      assert.equal(res.statusCode, 500);
      assert.deepEqual(res.json(), { error: 'Internal server error', code: 'INTERNAL_ERROR' });
      assert.doesNotMatch(res.body, /ECONNREFUSED|internal-detail|10\.0\.0\.7|at /);
    });

    it('answers 500 INTERNAL_ERROR when a handler throws undefined', async () => {
      const res = await t.api({ method: 'GET', path: 'test/throw-nothing/' });
      assert.equal(res.statusCode, 500);
      assert.deepEqual(res.json(), { error: 'Internal server error', code: 'INTERNAL_ERROR' });
    });

    it('adds the extra fields of an AppError at the top level of the body', async () => {
      const res = await t.api({ method: 'GET', path: 'test/locked/' });
      assert.equal(res.statusCode, 423);
      assert.deepEqual(res.json(), {
        error: 'Account temporarily locked after too many failed attempts', code: 'ACCOUNT_LOCKED', retry_after: 42,
      });
    });
  });
});
