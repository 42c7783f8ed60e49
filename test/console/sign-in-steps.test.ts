import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { base32Decode, timeStep, totpAt } from '../../src/security/totp.js';
import { assignRole } from '../factories/rbac.js';
import { createUser, userRow } from '../factories/users.js';
import { describeInBrowser } from '../helpers/browser.js';
import { createOperator, PHONE, startConsole, type ConsoleServer } from './harness.js';

describeInBrowser('the console\'s sign-in steps in Chromium: 2FA setup, forced password change, a locked account', () => {
  let c: ConsoleServer;

  before(async () => { c = await startConsole(); });
  after(async () => { await c?.close(); });

  it('walks an administrator without 2FA through the setup (QR code, secret, backup codes), then signs in with a new code', async () => {
    const admin = await createUser(c.t, { email: 'new-admin@example.com', first_name: 'Nadia', last_name: 'Newadmin', is_staff: true });
    await assignRole(c.t.container.db, admin.id, 'admin');
    const { page, problems, refusals } = await c.open();
    const gate = page.waitForResponse((res) => res.url().endsWith('/login/email/') && res.status() === 403);
    await page.getByLabel('Email').fill(admin.email!);
    await page.getByLabel('Password').fill(admin.password!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
    const restricted = (await (await gate).json() as { access_token: string }).access_token;

    const qr = page.getByRole('img', { name: /QR code/ });
    await qr.waitFor();
    assert.equal(await qr.evaluate((el) => el.tagName), 'IMG');
    assert.match((await qr.getAttribute('src'))!, /^data:image\//);
    const secret = (await page.getByLabel('Secret').textContent())!.trim();
    assert.match(secret, /^[A-Z2-7]+=*$/);
    const backup = await page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem').allTextContents();
    assert.equal(backup.length, 10);
    await page.getByText('not shown again').waitFor();
    await c.screenshot(page, 'sign-in-2fa-setup');

    // A wrong code first: the API's refusal in words.
    await page.getByLabel('Code from the app').fill('000000');
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.getByRole('alert').filter({ hasText: 'INVALID_CODE' }).waitFor();

    const codeAt = () => totpAt(base32Decode(secret), timeStep(c.t.clock.now()));
    await page.getByLabel('Code from the app').fill(codeAt());
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.getByRole('status').filter({ hasText: 'Two-factor authentication is on' }).waitFor();
    assert.equal((await userRow(c.t, admin.id)).is_2fa_enabled, true);
    // The setup's restricted session ended with its step: its token is revoked (with the console's application, whose
    // key the page sent: this file's test application's credentials would be refused as another application's).
    const { jti } = JSON.parse(Buffer.from(restricted.split('.')[1]!, 'base64url').toString()) as { jti: string };
    const revoked = await c.t.container.db.selectFrom('token_blacklist').select('reason').where('jti', '=', jti).execute();
    assert.deepEqual(revoked.map((r) => r.reason), ['logout']);

    // The confirming code's step is used: the sign-in takes the next one.
    c.t.clock.advance(30);
    await page.getByLabel('Authenticator code').fill(codeAt());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.close();
    assert.deepEqual(problems, []);
    // ADMIN_2FA_SETUP_REQUIRED, the wrong code, then 2FA_REQUIRED is not asked (the code was already in the form).
    assert.deepEqual(refusals, [403, 400]);
  });

  it('makes a flagged account change its password: mismatch refused in the page, a weak one by the API, a good one enters', async () => {
    const who = await createOperator(c.t, { email: 'must-change@example.com', first_name: 'Max', last_name: 'Mustchange',
      must_change_password: true });
    const { page, problems, refusals } = await c.open({ viewport: PHONE });
    c.t.clock.advance(30);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Authenticator code').fill(who.code());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Change your password' }).waitFor();
    await page.getByText(/At least \d+ characters/).waitFor();

    await page.getByLabel('Current password').fill(who.password);
    await page.getByLabel('New password', { exact: true }).fill('Another-Good-Passphrase-42');
    await page.getByLabel('New password again').fill('Another-Good-Passphrase-43');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'do not match' }).waitFor();
    assert.equal((await userRow(c.t, who.id)).must_change_password, true);

    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('New password again').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'VALIDATION_ERROR' }).waitFor();
    await page.getByRole('list', { name: 'What the server refused' }).filter({ hasText: 'new_password' }).waitFor();
    await c.screenshot(page, 'sign-in-password-change-refused-phone');
    assert.equal((await userRow(c.t, who.id)).must_change_password, true);

    await page.getByLabel('New password', { exact: true }).fill('Another-Good-Passphrase-42');
    await page.getByLabel('New password again').fill('Another-Good-Passphrase-42');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const row = await userRow(c.t, who.id);
    assert.equal(row.must_change_password, false);
    // The console works with the new token, and keeps it across a reload (the refresh cookie was renewed).
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401, 400]);
  });

  it('shows a locked account as ACCOUNT_LOCKED in words, with when to try again', async () => {
    const locked = await createUser(c.t, { email: 'locked@example.com', locked_until: new Date(c.t.clock.now().getTime() + 3_600_000) });
    const { page, problems, refusals } = await c.open();
    await page.getByLabel('Email').fill(locked.email!);
    await page.getByLabel('Password').fill(locked.password!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'ACCOUNT_LOCKED' }).waitFor();
    await page.getByText('Try again in 60 minutes.').waitFor();
    await c.screenshot(page, 'sign-in-locked');
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [423]);
  });
});
