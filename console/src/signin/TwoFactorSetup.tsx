import { useEffect, useState, type FormEvent } from 'react';
import { api, type Answer } from '../api';
import { SignInError } from './SignInError';
import './signin.css';

type SetupAnswer = Answer<'2fa/setup/', 'post'>;

/**
 * An administrator without two-factor authentication (403 ADMIN_2FA_SETUP_REQUIRED): with the 15-minute restricted
 * token the refusal carried, start a setup (QR code, secret, backup codes shown this once) and confirm it with a code.
 * The restricted token has no refresh token behind it, so `onEnabled` signs in again with a new code.
 */
export function TwoFactorSetup({ onEnabled, onCancel }: { onEnabled: () => void; onCancel: () => void }) {
  const [setup, setSetup] = useState<SetupAnswer | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api<SetupAnswer>('POST', '2fa/setup/', {}).then((answer) => { if (live) setSetup(answer); }, (err: unknown) => { if (live) setError(err); });
    return () => { live = false; };
  }, []);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('POST', '2fa/confirm/', { code: code.trim() });
      onEnabled();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card wide" onSubmit={confirm} aria-labelledby="setup-title">
      <h1 id="setup-title">Set up two-factor authentication</h1>
      <p>Administrators must use an authenticator app. Scan this code with it, or type the secret by hand.</p>
      {!setup && !error && <p aria-busy="true">Preparing…</p>}
      {setup && <>
        <img className="qr" src={setup.qr_code} alt="QR code to scan with an authenticator app" width={200} height={200} />
        <p>Secret for manual entry: <code aria-label="Secret" className="secret">{setup.secret}</code></p>
        <section aria-labelledby="backup-title">
          <h2 id="backup-title">Backup codes</h2>
          <p className="warning" role="note">{setup.warning}</p>
          <ul className="backup-codes" aria-label="Backup codes">
            {setup.backup_codes.map((c) => <li key={c}><code>{c}</code></li>)}
          </ul>
        </section>
        <label htmlFor="setup-code">Code from the app</label>
        <input id="setup-code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required value={code}
          onChange={(e) => setCode(e.target.value)} />
      </>}
      <SignInError error={error} />
      <div className="actions">
        <button type="submit" disabled={busy || !setup}>Turn on two-factor authentication</button>
        <button type="button" className="secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
