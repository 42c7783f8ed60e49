import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError, assertValidation } from '../auth/assertions.js';
import { deletionRequest } from '../deletion/admin-fixtures.js';
import { account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus } from '../../helpers/answers.js';

// Real 1×1 images (each decodes in a browser).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
const JPEG = Buffer.from('/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8Q'
  + 'EBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=', 'base64');
const MAX = 2 * 1024 * 1024;
/** A PNG signature followed by `size - 8` bytes: an image by its bytes, of the size asked. */
const pngOfSize = (size: number) => Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(size - 8)]);
const AVATAR_URL = /^\/media\/avatars\/[0-9a-f]{32}\.(png|jpg|webp)$/;

type Part = [name: string, value: string | { bytes: Buffer; filename: string; type: string }];

/** The body and Content-Type `fetch` sends for a FormData (the SDK drops its JSON Content-Type for one). */
async function multipart(parts: Part[]) {
  const form = new FormData();
  for (const [name, v] of parts) {
    if (typeof v === 'string') form.append(name, v);
    else form.append(name, new Blob([v.bytes], { type: v.type }), v.filename);
  }
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

const file = (bytes: Buffer, filename = 'me.png', type = 'image/png') => ({ bytes, filename, type });

/** SDK compatibility (docs/migrating-from-tenxyte.md): `PATCH me/` may be multipart with a file `avatar`, served back at `/media/avatars/<name>`. */
describe('SDK compatibility: avatar upload', () => {
  const t = useTestApp({ env: { SVC_SECURITY_HEADERS_ENABLED: 'true' } });
  let user: TestUser;
  let token: string;
  // The API's security headers on, as in production: the image's own headers replace them.
  beforeEach(async () => {
    user = await createUser(t, { first_name: 'Ann' });
    token = (await signIn(t, user)).access_token;
  });

  /** `userApi.uploadAvatar(formData)`: PATCH me/ with the SDK's headers, minus the Content-Type `fetch` sets. */
  async function upload(parts: Part[]) {
    const { payload, contentType } = await multipart(parts);
    return t.api({ method: 'PATCH', path: 'me/', token, payload, headers: { 'content-type': contentType, accept: 'application/json' } });
  }
  /** What an `<img>` does: no application headers, no bearer. */
  const media = (url: string, method: 'GET' | 'HEAD' | 'POST' = 'GET') => t.app.inject({ method, url });
  const me = async () => expectStatus(await t.api({ method: 'GET', path: 'me/', token }), 200);
  const avatarRows = () => t.container.db.selectFrom('avatars').select(['user_id', 'name']).execute();

  it('stores a PNG, answers its URL as avatar and user.avatar, and serves it back byte for byte without application headers', async () => {
    const body = expectStatus(await upload([['avatar', file(PNG, 'photo.png')]]), 200);
    assert.match(body.avatar, AVATAR_URL);
    assert.ok(body.avatar.endsWith('.png'));
    assert.equal(body.user.avatar, body.avatar);
    assert.deepEqual(body.updated_fields, ['avatar']);
    assert.equal((await me()).avatar, body.avatar);
    assert.ok(!body.avatar.includes('photo'), 'the client file name is not used');

    const res = await media(body.avatar);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.rawPayload, PNG);
    assert.equal(res.headers['content-type'], 'image/png');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['content-security-policy'], "default-src 'none'");
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin', 'front ends on other sites may embed it');
    const head = await media(body.avatar, 'HEAD');
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-type'], 'image/png');
    assert.equal(head.body, '');
  });

  it('serves JPEG and WebP under their own type, whatever type and name the client gave', async () => {
    for (const [bytes, type, ext] of [[JPEG, 'image/jpeg', 'jpg'], [WEBP, 'image/webp', 'webp']] as const) {
      const body = expectStatus(await upload([['avatar', file(bytes, 'avatar.gif', 'application/octet-stream')]]), 200);
      assert.ok(body.avatar.endsWith(`.${ext}`), body.avatar);
      const res = await media(body.avatar);
      assert.equal(res.headers['content-type'], type);
      assert.deepEqual(res.rawPayload, bytes);
    }
  });

  it('takes the fields of a JSON PATCH me/ as text parts beside the file', async () => {
    const body = expectStatus(await upload([['first_name', 'Anna'], ['bio', 'Hi'], ['custom_fields', '{"team":"blue"}'],
      ['avatar', file(PNG)]]), 200);
    assert.deepEqual(body.updated_fields.sort(), ['avatar', 'bio', 'custom_fields', 'first_name']);
    const profile = await me();
    assert.deepEqual([profile.first_name, profile.bio, profile.custom_fields], ['Anna', 'Hi', { team: 'blue' }]);
  });

  it('removes the old image when the avatar is replaced', async () => {
    const first = expectStatus(await upload([['avatar', file(PNG)]]), 200).avatar;
    const second = expectStatus(await upload([['avatar', file(WEBP, 'b.webp', 'image/webp')]]), 200).avatar;
    assert.notEqual(first, second);
    assertError(await media(first), 404, 'NOT_FOUND');
    assert.equal((await media(second)).statusCode, 200);
    assert.deepEqual(await avatarRows(), [{ user_id: user.id, name: second.split('/').pop() }]);
  });

  it('accepts 2 MB exactly', async () => {
    const body = expectStatus(await upload([['avatar', file(pngOfSize(MAX))]]), 200);
    assert.equal((await media(body.avatar)).rawPayload.length, MAX);
  });

  describe('refuses with 400 validation naming the part, storing nothing', () => {
    const refusals: Array<[string, Part[], string]> = [
      ['a text file with a PNG name and type', [['avatar', file(Buffer.from('not an image at all'))]], 'avatar'],
      ['an empty file', [['avatar', file(Buffer.alloc(0))]], 'avatar'],
      ['an image of 2 MB and one byte', [['avatar', file(pngOfSize(MAX + 1))]], 'avatar'],
      ['a second file', [['avatar', file(PNG)], ['avatar', file(PNG)]], 'avatar'],
      ['an avatar sent as text', [['avatar', 'https://example.com/a.png']], 'avatar'],
      ['an unknown text part', [['avatar', file(PNG)], ['is_staff', 'true']], 'is_staff'],
      ['an unknown file part', [['picture', file(PNG)]], 'picture'],
      ['a field sent twice', [['first_name', 'A'], ['first_name', 'B']], 'first_name'],
      ['custom_fields that are not JSON', [['custom_fields', '{team']], 'custom_fields'],
      ['an invalid field beside a valid image', [['first_name', 'Anna'], ['username', 'ab'], ['avatar', file(PNG)]], 'username'],
    ];
    for (const [what, parts, field] of refusals) {
      it(what, async () => {
        assertValidation(await upload(parts), field);
        const profile = await me();
        assert.deepEqual([profile.avatar, profile.first_name], [null, 'Ann']);
        assert.deepEqual(await avatarRows(), []);
      });
    }
  });

  it('stops reading an oversized upload at the limit', async () => {
    let sent = 0;
    const { contentType } = await multipart([['avatar', file(PNG)]]);
    const boundary = contentType.split('boundary=')[1]!;
    async function* body() {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n`
        + 'Content-Type: image/png\r\n\r\n');
      yield PNG.subarray(0, 8);
      for (let i = 0; i < 256; i++) { sent += 64 * 1024; yield Buffer.alloc(64 * 1024); } // 16 MB, never finished
    }
    const res = await t.api({ method: 'PATCH', path: 'me/', token, payload: Readable.from(body()),
      headers: { 'content-type': contentType } });
    assertValidation(res, 'avatar');
    assert.ok(sent < 4 * MAX, `${sent} bytes were pulled from the client`);
  });

  it('keeps JSON PATCH me/ as before: same answer, and avatar is not a JSON field', async () => {
    const url = expectStatus(await upload([['avatar', file(PNG)]]), 200).avatar;
    const payload = { first_name: 'Anna', avatar: '/media/avatars/x.png' };
    const body = expectStatus(await t.api({ method: 'PATCH', path: 'me/', token, payload }), 200);
    assert.deepEqual(Object.keys(body).sort(), ['message', 'updated_fields', 'user', 'verification_required']);
    assert.deepEqual(body.updated_fields, ['first_name']);
    assert.equal(body.user.avatar, url);
  });

  it('reads multipart on PATCH me/ only: elsewhere it stays 415', async () => {
    const { payload, contentType } = await multipart([['email', user.email!], ['password', user.password!]]);
    assertError(await t.api({ method: 'POST', path: 'login/email/', payload, headers: { 'content-type': contentType } }), 415,
      'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 401 to an upload without a bearer token', async () => {
    const { payload, contentType } = await multipart([['avatar', file(PNG)]]);
    assertError(await t.api({ method: 'PATCH', path: 'me/', payload, headers: { 'content-type': contentType } }), 401, 'UNAUTHORIZED');
  });

  it('answers 404 for an unknown or malformed name, and 405 to anything but GET and HEAD', async () => {
    const url = expectStatus(await upload([['avatar', file(PNG)]]), 200).avatar as string;
    for (const path of [url.replace(/[0-9a-f]{32}/, '0'.repeat(32)), url.replace('.png', '.jpg'), url.toUpperCase(),
      `${url}.png`, '/media/avatars/..%2F..%2Fetc%2Fpasswd', '/media/avatars/x.png']) {
      assertError(await media(path), 404, 'NOT_FOUND');
    }
    assertError(await media(url, 'POST'), 405, 'METHOD_NOT_ALLOWED');
  });

  it('lists the avatar URL in the data export, and erases the image with the account', async () => {
    const url = expectStatus(await upload([['avatar', file(PNG)]]), 200).avatar;
    const exported = expectStatus(await t.api({ method: 'POST', path: 'export-user-data/', token,
      payload: { password: user.password } }), 200);
    assert.equal(exported.user_info.avatar, url);

    const admin = await account(t);
    await grantDirect(t, admin.id, ['gdpr.process']);
    const id = await deletionRequest(t, user, { status: 'confirmed', graceEndsAt: new Date(t.clock.now().getTime() - 1000) });
    expectStatus(await t.api({ method: 'POST', path: `admin/deletion-requests/${id}/process/`, token: admin.token,
      payload: { confirmation: 'PERMANENTLY DELETE' } }), 200);
    assertError(await media(url), 404, 'NOT_FOUND');
    assert.equal((await userRow(t, user.id)).avatar, null);
    assert.deepEqual(await avatarRows(), []);
  });
});
