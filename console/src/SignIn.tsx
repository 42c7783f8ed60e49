import { useState, type FormEvent } from 'react';
import { api, ApiError, setAccessToken } from './api';
import { ErrorMessage } from './ErrorMessage';

interface TokenAnswer { access_token: string }

/** Email and password, then the authenticator code when the account has two-factor authentication. */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api<TokenAnswer>('POST', 'login/email/', { email, password, ...(needsCode ? { totp_code: totp } : {}) });
      setAccessToken(answer.access_token);
      onSignedIn();
    } catch (err) {
      if (err instanceof ApiError && err.code === '2FA_REQUIRED' && !needsCode) setNeedsCode(true);
      else setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="centered">
      <form className="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Gatehouse</h1>
        <label htmlFor="email">Email</label>
        <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="current-password" required value={password}
          onChange={(e) => setPassword(e.target.value)} />
        {needsCode && <>
          <label htmlFor="totp">Authenticator code</label>
          <input id="totp" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required value={totp}
            onChange={(e) => setTotp(e.target.value)} />
        </>}
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>{needsCode ? 'Verify' : 'Sign in'}</button>
      </form>
    </main>
  );
}
