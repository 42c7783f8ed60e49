import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import type { Env } from '../../../src/config/load.js';
import { PageOf, PageQuery } from '../../../src/core/pagination.js';
import type { RoutePlugin } from '../../../src/http/route-plugin.js';
import { Body } from '../../../src/http/schema.js';
import { useTestApp } from '../../helpers/test-app.js';

const Widget = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.Union([Type.String(), Type.Null()]) });
const testRoutes: RoutePlugin = async (app) => {
  app.post('/test/widgets/', {
    schema: {
      description: 'Create a widget',
      body: Body({ name: Type.String({ minLength: 1 }), color: Type.Optional(Type.String()) }),
      response: { 201: Widget },
    },
  }, async (req, reply) => reply.code(201).send({ id: 1, name: (req.body as { name: string }).name, color: null }));
  app.get('/test/widgets/', { schema: { querystring: PageQuery, response: { 200: PageOf(Widget) } } },
    async () => ({ count: 0, next: null, previous: null, page: 1, page_size: 20, total_pages: 1, results: [] }));
};

const PREFIX = '/api/v1/auth/';
const FEATURE_DISABLED = { error: 'This feature is not enabled', code: 'FEATURE_DISABLED', details: { setting: 'SVC_DOCS_ENABLED' } };
const APP_KEYS = { 'X-Access-Key': [], 'X-Access-Secret': [] };

const pick = (o: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

/** Every script and stylesheet a page loads comes from this server: no absolute or protocol-relative URL. */
function assertNoRemoteAssets(html: string) {
  const refs = [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1] ?? '');
  assert.ok(refs.length > 0, 'the page loads assets');
  for (const ref of refs) assert.doesNotMatch(ref, /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i, ref);
  assert.doesNotMatch(html, /cdn|unpkg|jsdelivr|cdnjs/i);
}

// The apps of the describes below share one database; holding it here avoids reopening it for each.

describe('OpenAPI document and viewers', () => {
  const t = useTestApp({ apiRoutes: [testRoutes], reset: false });

  it('GET docs/schema/ answers an OpenAPI 3 document with the request and response schemas of every API route', async () => {
    const res = await t.api({ method: 'GET', path: 'docs/schema/' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const doc = res.json();
    assert.match(doc.openapi, /^3\./);
    assert.equal(typeof doc.info.title, 'string');

    const create = doc.paths[`${PREFIX}test/widgets/`]?.post;
    assert.ok(create, 'POST test/widgets/ is documented');
    assert.equal(create.description, 'Create a widget');
    const body = create.requestBody.content['application/json'].schema;
    assert.deepEqual(body.required, ['name']);
    assert.deepEqual(Object.keys(body.properties).sort(), ['color', 'name']);
    assert.deepEqual(body.properties.name, { type: 'string', minLength: 1 });
    assert.equal(body.additionalProperties, false);
    const created = create.responses['201'].content['application/json'].schema;
    assert.deepEqual(Object.keys(created.properties).sort(), ['color', 'id', 'name']);
    assert.deepEqual(created.properties.id, { type: 'integer' });

    const list = doc.paths[`${PREFIX}test/widgets/`]?.get;
    assert.ok(list, 'GET test/widgets/ is documented');
    const params = (list.parameters as { name: string; in: string }[]).map((p) => `${p.in}:${p.name}`).sort();
    assert.deepEqual(params, ['query:page', 'query:page_size']);
    const page = list.responses['200'].content['application/json'].schema;
    assert.deepEqual(Object.keys(page.properties).sort(), ['count', 'next', 'page', 'page_size', 'previous', 'results', 'total_pages']);
  });

  it('declares the security schemes X-Access-Key, X-Access-Secret, Bearer and AgentBearer; the application keys are the global requirement', async () => {
    const doc = (await t.api({ method: 'GET', path: 'docs/schema/' })).json();
    const schemes = doc.components.securitySchemes;
    assert.deepEqual(Object.keys(schemes).sort(), ['AgentBearer', 'Bearer', 'X-Access-Key', 'X-Access-Secret']);
    assert.deepEqual(pick(schemes['X-Access-Key'], 'type', 'in', 'name'), { type: 'apiKey', in: 'header', name: 'X-Access-Key' });
    assert.deepEqual(pick(schemes['X-Access-Secret'], 'type', 'in', 'name'), { type: 'apiKey', in: 'header', name: 'X-Access-Secret' });
    assert.deepEqual(pick(schemes.Bearer, 'type', 'scheme', 'bearerFormat'), { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    assert.deepEqual(pick(schemes.AgentBearer, 'type', 'in', 'name'), { type: 'apiKey', in: 'header', name: 'Authorization' });
    assert.match(schemes.AgentBearer.description, /AgentBearer <token>/);
    assert.deepEqual(doc.security, [APP_KEYS]);
  });

  it('lists the Bearer scheme on the operations whose guards require a user, AgentBearer beside it where agents are accepted, both alternatives where the bearer is optional', async () => {
    const doc = (await t.api({ method: 'GET', path: 'docs/schema/' })).json();
    const operation = (method: string, path: string) => doc.paths[`${PREFIX}${path}`]?.[method];
    const userOrAgent = [{ ...APP_KEYS, Bearer: [] }, { ...APP_KEYS, AgentBearer: [] }];
    assert.deepEqual(operation('get', 'me/').security, userOrAgent);
    assert.deepEqual(operation('get', 'admin/users/').security, userOrAgent);
    assert.deepEqual(operation('patch', 'me/').security, [{ ...APP_KEYS, Bearer: [] }], 'closed to agents');
    assert.deepEqual(operation('get', 'applications/').security, [{ ...APP_KEYS, Bearer: [] }], 'closed to agents');
    for (const path of ['ai/authorize/', 'ai/tokens/{id}/heartbeat/', 'ai/tokens/{id}/report-usage/']) {
      assert.deepEqual(operation('post', path).security, [{ ...APP_KEYS, AgentBearer: [] }, { ...APP_KEYS, Bearer: [] }],
        `${path}: an agent token, or an OAuth grant's access token`);
    }
    assert.deepEqual(operation('post', 'logout/').security, [{ ...APP_KEYS, Bearer: [] }, APP_KEYS]);
    assert.equal(operation('post', 'login/email/').security, undefined, 'login/email/ inherits the application keys');
    assert.equal(operation('get', 'password/requirements/').security, undefined);
  });

  it('leaves health, metrics and the docs routes themselves out of paths', async () => {
    const doc = (await t.api({ method: 'GET', path: 'docs/schema/' })).json();
    const paths = Object.keys(doc.paths);
    assert.ok(paths.length >= 1);
    for (const p of paths) {
      assert.ok(p.startsWith(PREFIX), p);
      assert.ok(!p.startsWith(`${PREFIX}docs`), p);
      assert.ok(!p.endsWith('*'), p);
    }
  });

  it('GET docs/schema/ answers 200 without application credentials', async () => {
    const res = await t.api({ method: 'GET', path: 'docs/schema/', appAuth: false });
    assert.equal(res.statusCode, 200);
    assert.match(res.json().openapi, /^3\./);
  });

  it('Swagger UI\'s own copies of the schema (docs/json, docs/yaml) answer without credentials', async () => {
    const schema = await t.api({ method: 'GET', path: 'docs/schema/', appAuth: false });
    const copy = await t.api({ method: 'GET', path: 'docs/json', appAuth: false });
    assert.equal(copy.statusCode, 200);
    assert.deepEqual(Object.keys(copy.json().paths).sort(), Object.keys(schema.json().paths).sort());
    const yaml = await t.api({ method: 'GET', path: 'docs/yaml', appAuth: false });
    assert.equal(yaml.statusCode, 200);
    assert.match(yaml.body, /^openapi: 3\./m);
  });

  it('GET docs/ serves Swagger UI without credentials, with every asset served locally', async () => {
    const res = await t.api({ method: 'GET', path: 'docs/', appAuth: false });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /swagger-ui/);
    assertNoRemoteAssets(res.body);
    assert.doesNotMatch(res.body, /credentials\.js/);
    const bundle = await t.api({ method: 'GET', path: 'docs/static/swagger-ui-bundle.js', appAuth: false });
    assert.equal(bundle.statusCode, 200);
    assert.match(String(bundle.headers['content-type']), /javascript/);
  });

  it('GET docs/redoc/ serves ReDoc without credentials, loading redoc.standalone.js from this server', async () => {
    const res = await t.api({ method: 'GET', path: 'docs/redoc/', appAuth: false });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<script src="redoc\.standalone\.js"><\/script>/);
    assertNoRemoteAssets(res.body);
    const bundle = await t.api({ method: 'GET', path: 'docs/redoc/redoc.standalone.js', appAuth: false });
    assert.equal(bundle.statusCode, 200);
    assert.match(String(bundle.headers['content-type']), /^application\/javascript/);
    assert.match(bundle.body, /Redoc/);
  });

  it('asks for no credentials in the page: no prompt script is served, and ReDoc loads the schema by its URL', async () => {
    assert.equal((await t.api({ method: 'GET', path: 'docs/redoc/credentials.js', appAuth: false })).statusCode, 404);
    const init = await t.api({ method: 'GET', path: 'docs/redoc/init.js', appAuth: false });
    assert.equal(init.statusCode, 200);
    assert.match(init.body, /Redoc\.init\('\.\.\/schema\/'/);
    assert.doesNotMatch(init.body, /prompt|sessionStorage/);
  });
});

const disabled: { name: string; env: Env }[] = [
  { name: 'SVC_DOCS_ENABLED=false', env: { SVC_DOCS_ENABLED: 'false' } },
  { name: 'the robust preset', env: { SVC_SHORTCUT_SECURE_MODE: 'robust' } },
];

for (const setting of disabled) {
  describe(`docs with ${setting.name}`, () => {
    const t = useTestApp({ apiRoutes: [testRoutes], env: setting.env, reset: false });

    it('GET docs/schema/, docs/ and docs/redoc/ answer 404 FEATURE_DISABLED, with or without credentials', async () => {
      for (const path of ['docs/schema/', 'docs/', 'docs/redoc/']) {
        for (const appAuth of [true, false]) {
          const res = await t.api({ method: 'GET', path, appAuth });
          assert.equal(res.statusCode, 404, path);
          assert.deepEqual(res.json(), FEATURE_DISABLED);
        }
      }
    });

    it('serves none of the viewers\' files or schema copies', async () => {
      for (const path of ['docs/json', 'docs/redoc/redoc.standalone.js', 'docs/static/swagger-ui-bundle.js']) {
        const res = await t.api({ method: 'GET', path });
        assert.equal(res.statusCode, 404, path);
      }
    });
  });
}
