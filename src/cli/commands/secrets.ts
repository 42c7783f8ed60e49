import { replaceDebugEncryptionKey } from '../../config/debug-secrets.js';
import type { Env } from '../../config/load.js';
import { migrateToLatest } from '../../db/migrator.js';
import { KeyRotationError } from '../../modules/encryption/rotation.service.js';
import { sealingSecretOf } from '../../modules/encryption/sealers.js';
import { print, UsageError } from '../output.js';
import { KEYS_ROTATE_ENCRYPTION_USAGE, USER_RESET_2FA_USAGE } from '../usage.js';
import { withRuntime } from './database.js';

/** As SVC_JWT_SECRET_KEY: a key anyone could guess would seal nothing. */
const MIN_KEY_BYTES = 32;

/**
 * `gatehouse keys rotate-encryption [--from OLD] --to NEW`: re-seals every stored secret with NEW in one transaction
 * (modules/encryption/rotation.service.ts). `--from` defaults to the key in use. In a data directory of `npm start`
 * whose key came from debug-secrets.json, the file is updated too; otherwise the instances need SVC_ENCRYPTION_KEY=NEW.
 */
export async function keysRotateEncryptionCommand(env: Env, opts: { from?: string; to?: string }): Promise<void> {
  const usage = `(usage: gatehouse ${KEYS_ROTATE_ENCRYPTION_USAGE})`;
  if (!opts.to) throw new UsageError(`keys rotate-encryption: --to is required ${usage}`);
  if (Buffer.byteLength(opts.to, 'utf8') < MIN_KEY_BYTES) {
    throw new UsageError(`keys rotate-encryption: --to must be at least ${MIN_KEY_BYTES} bytes (openssl rand -base64 48)`);
  }
  await withRuntime(env, async ({ database, container, loaded }) => {
    await migrateToLatest(database.db);
    const from = opts.from ?? sealingSecretOf(loaded.config);
    if (from === opts.to) throw new UsageError('keys rotate-encryption: --to is the key in use already');
    print('Re-sealing the stored secrets with the new key, in one transaction…');
    try {
      await container.services.keyRotation.rotate({ from, to: opts.to! }, print);
    } catch (err) {
      if (err instanceof KeyRotationError) throw new UsageError(`keys rotate-encryption: ${err.message}; nothing was changed`);
      throw err;
    }
    const secrets = loaded.debugSecrets;
    if (secrets?.supplied.includes('SVC_ENCRYPTION_KEY') && from === loaded.config.ENCRYPTION_KEY) {
      replaceDebugEncryptionKey(secrets.file, opts.to!);
      print(`Done. ${secrets.file} now holds the new key: the next start uses it.`);
    } else {
      print('Done. Set SVC_ENCRYPTION_KEY to the new key on every instance and restart them: until then they cannot open '
        + 'what was re-sealed, and start-up refuses the old key.');
    }
    print('One-time codes sent in the last minutes and agent actions awaiting confirmation stop working (ask for new ones).');
  });
}

/** `gatehouse user reset-2fa EMAIL`: what `POST admin/users/<id>/reset-2fa/` does, for an account named by email. */
export async function userReset2faCommand(env: Env, args: string[]): Promise<void> {
  const [email, ...extra] = args;
  if (!email || extra.length > 0) throw new UsageError(`usage: gatehouse ${USER_RESET_2FA_USAGE}`);
  await withRuntime(env, async ({ database, container }) => {
    await migrateToLatest(database.db);
    const { adminUsers } = container.services;
    const id = await adminUsers.idByEmail(email);
    if (id === undefined) throw new UsageError(`user reset-2fa: no account has the email ${email}`);
    const answer = await adminUsers.resetTwoFactor(null, id);
    if (answer.sessions_revoked === undefined) {
      print(`${email}: two-factor authentication was not set up; nothing changed.`);
      return;
    }
    print(`${email}: two-factor authentication reset, ${answer.sessions_revoked} session(s) ended, a notice sent.`);
    print('The next sign-in needs the password alone; a staff account is asked to set two-factor authentication up again.');
  });
}
