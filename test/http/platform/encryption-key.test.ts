import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { ConfigError } from '../../../src/config/errors.js';
import { checkEncryptionKey, type KeyCheckOptions } from '../../../src/modules/encryption/key-check.js';
import { KeyRotationError } from '../../../src/modules/encryption/rotation.service.js';
import { sealersOf } from '../../../src/modules/encryption/sealers.js';
import { enableTotp, totpNow } from '../../factories/twofactor.js';
import { createUser, DEFAULT_PASSWORD, type TestUser } from '../../factories/users.js';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { account } from '../../factories/accounts.js';
import { expectStatus } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';

const OLD = 'the encryption key the data was sealed with, 48 bytes';
const NEW = 'the encryption key it is rotated to, at least 32 bytes';
const OTHER = 'an encryption key that never sealed anything here';
const SETTING = { name: 'SVC_ENCRYPTION_KEY', detail: '' } as const;

// see: "A newcomer's first hour works as written" — a key that could not open what was stored answered 500 at each TOTP check.
describe('the encryption key: the start-up check and the rotation', () => {
  const t = useTestApp({ env: { SVC_ENCRYPTION_KEY: OLD } });
  let warnings: string[];
  beforeEach(() => { warnings = []; });

  const check = (secret: string, opts: Partial<KeyCheckOptions> = {}) => checkEncryptionKey(t.container.db, sealersOf(secret),
    { write: true, lenient: false, setting: SETTING, warn: (m) => warnings.push(m), now: t.clock.now(), ...opts });
  const checkValue = () => t.container.db.selectFrom('sealed_values').select('sealed').where('name', '=', 'key-check').executeTakeFirst();
  const refused = (pattern: RegExp) => (err: unknown) => err instanceof ConfigError && pattern.test(err.message);

  it('writes the check value at the first start, opens it at every later one, and refuses another key naming the setting', async () => {
    assert.equal(await check(OLD), 'written');
    assert.equal(await check(OLD), 'verified');
    await assert.rejects(check(OTHER), refused(/^Invalid setting SVC_ENCRYPTION_KEY: it cannot decrypt the secrets stored in the database .* which were sealed with another key; set the key they were sealed with, or re-seal them for this one with `gatehouse keys rotate-encryption --from <that key> --to <this key>`$/));
    assert.equal(await check(OLD), 'verified', 'a refusal changes nothing');
    // A key drawn for one process (debug mode without a kept secret) is told, and takes the check value over.
    assert.equal(await check(OTHER, { lenient: 'ephemeral' }), 'replaced');
    assert.match(warnings.join('\n'), /sealed by an earlier start with another ephemeral key/);
    assert.equal(await check(OTHER), 'verified');
  });

  it('on a database from before the check value, tries the key on the stored secrets before writing it', async () => {
    await enableTotp(t, await createUser(t, { email: 'zoe@example.com' }));
    await assert.rejects(check(OTHER), refused(/^Invalid setting SVC_ENCRYPTION_KEY: it cannot decrypt the stored TOTP secrets; set the SVC_ENCRYPTION_KEY it was sealed with$/));
    assert.equal(await checkValue(), undefined, 'nothing written');
    // A data directory of npm start getting its first kept secrets: what its ephemeral keys sealed is reported, not refused.
    assert.equal(await check(OTHER, { lenient: 'new-debug-secrets', write: false }), 'verified');
    assert.match(warnings.join('\n'), /cannot decrypt the stored TOTP secrets, sealed by an earlier start with an ephemeral key: .*gatehouse user reset-2fa EMAIL/);
    assert.equal(await check(OLD), 'written');
  });

  it('a rotation re-seals every stored secret in one go: an app on the new key takes the TOTP code, the backup code and signs webhooks', async () => {
    const admin = await account(t, { email: 'admin@example.com', roles: ['admin'] });
    const zoe: TestUser = await createUser(t, { email: 'zoe@example.com' });
    const totp = await enableTotp(t, zoe);
    const created = expectStatus(await t.api({ method: 'POST', path: 'webhooks/', token: admin.token,
      payload: { url: 'http://127.0.0.1:9/hooks', events: ['user.created'] } }), 201) as { webhook: { id: number }; secret: string };
    assert.equal(await check(OLD), 'written');

    const rotation = t.container.services.keyRotation;
    await assert.rejects(rotation.rotate({ from: OTHER, to: NEW }, () => undefined),
      (err: unknown) => err instanceof KeyRotationError && /--from is not the key .* does not open the check value/.test((err as Error).message));
    const progress: string[] = [];
    const report = await rotation.rotate({ from: OLD, to: NEW }, (line) => progress.push(line));
    const counts = Object.fromEntries(report.kinds.map((k) => [k.what, k.resealed]));
    assert.equal(counts['TOTP secrets'], 1);
    assert.equal(counts['webhook secrets'], 1);
    assert.ok(progress.includes('TOTP secrets: 1 re-sealed'), progress.join('\n'));
    assert.ok(progress.includes('Backup-code key and check value: re-sealed'));
    const [event] = await auditEvents(t, 'encryption_key_rotated');
    assert.equal(event?.severity, 'warning');
    assert.deepEqual((event?.details as { resealed: Record<string, number> }).resealed['TOTP secrets'], 1);

    await assert.rejects(check(OLD), refused(/it cannot decrypt the secrets stored in the database/), 'the old key no longer opens them');
    const next = await createTestApp({ env: { SVC_ENCRYPTION_KEY: NEW }, now: new Date(t.clock.now().getTime() + 60_000) });
    try {
      const login = (totp_code: string) => next.api({ method: 'POST', path: 'login/email/',
        payload: { email: zoe.email, password: DEFAULT_PASSWORD, totp_code } });
      expectStatus(await login(totpNow(next, totp.secret)), 200);
      expectStatus(await login(totp.backupCodes[0]!), 200);
      const [row] = await next.container.db.selectFrom('webhooks').select('secret_sealed').where('id', '=', created.webhook.id).execute();
      assert.equal(next.container.sealers.webhooks.open(row!.secret_sealed), created.secret, 'the secret that signs is the one given');
    } finally {
      await next.close();
    }
  });
});
