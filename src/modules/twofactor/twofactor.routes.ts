import { AppError } from '../../core/errors.js';
import { aliasField } from '../../core/aliases.js';
import { authOf } from '../../http/guards/index.js';
import { metaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import {
  BackupCodesResponse, CodeBody, DisableBody, EnabledResponse, SetupBody, SetupResponse, StatusResponse, type CodeInput,
} from './twofactor.schemas.js';

const BACKUP_WARNING = 'Store these backup codes somewhere safe: each works once, and they are not shown again.';

/**
 * `code` or its alias `totp_code` (docs/migrating-from-tenxyte.md rule 2); 400 validation on `totp_code` when both are sent and
 * differ; 400 CODE_REQUIRED when neither is given (or the code is empty).
 */
function codeOf(body: CodeInput): string {
  const code = aliasField(body, 'code', 'totp_code');
  if (!code) throw new AppError('CODE_REQUIRED');
  return code;
}

/**
 * docs/authentication.md "Two-factor authentication". A `2fa_setup_only` token (an administrator signing in without 2FA)
 * is accepted here, and only here and on logout/.
 */
export default async function twoFactorRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { twofactor } = container.services;
  const user = guards.user({ scopes: ['full', '2fa_setup_only'] });
  const verifyLimit = guards.rateLimit('2fa_verify', [{ max: 5, per: 'minute' }]);

  app.get('/2fa/status/', {
    schema: { tags: ['2fa'], response: { 200: StatusResponse } },
    onRequest: [user],
  }, async (req) => twofactor.status(authOf(req).user.id));

  // An administrator held at the 2FA gate signed in moments ago: the `2fa_setup_only` token's sign-in is recent.
  app.post('/2fa/setup/', {
    schema: { tags: ['2fa'], body: SetupBody, response: { 200: SetupResponse } },
    onRequest: [user],
    preHandler: [guards.recentAuth()],
  }, async (req) => {
    const started = await twofactor.setup(authOf(req).user);
    return {
      message: 'Scan the QR code with an authenticator app, then confirm with a code from it at 2fa/confirm/.',
      secret: started.secret, qr_code: started.qrCode, provisioning_uri: started.provisioningUri,
      backup_codes: started.backupCodes, warning: BACKUP_WARNING,
    };
  });

  app.post('/2fa/confirm/', {
    schema: { tags: ['2fa'], body: CodeBody, response: { 200: EnabledResponse } },
    onRequest: [verifyLimit, user],
  }, async (req) => {
    await twofactor.confirm(authOf(req).user, codeOf(req.body), metaOf(req));
    return { message: 'Two-factor authentication is enabled.', is_enabled: true };
  });

  app.post('/2fa/disable/', {
    schema: { tags: ['2fa'], body: DisableBody, response: { 200: EnabledResponse } },
    onRequest: [verifyLimit, user],
  }, async (req) => {
    const body = req.body;
    await twofactor.disable(authOf(req).user, { code: codeOf(body), password: body.password }, metaOf(req));
    return { message: 'Two-factor authentication is disabled.', is_enabled: false };
  });

  app.post('/2fa/backup-codes/', {
    schema: { tags: ['2fa'], body: CodeBody, response: { 200: BackupCodesResponse } },
    onRequest: [verifyLimit, user],
  }, async (req) => {
    const { backupCodes } = await twofactor.regenerateBackupCodes(authOf(req).user, codeOf(req.body), metaOf(req));
    return { message: 'New backup codes generated; the previous ones no longer work.', backup_codes: backupCodes, warning: BACKUP_WARNING };
  });
}
