import { useState, type FormEvent } from 'react';
import { SignInError } from './SignInError';

export interface CredentialsInput { email: string; password: string; totp_code?: string }

/**
 * Email and password, then the authenticator code when the server asks for one (`needsCode`). The parent talks to the
 * API: this form only collects what the person types.
 */
export function Credentials({ needsCode, busy, error, notice, initialEmail = '', initialPassword = '', onSubmit }: {
  needsCode: boolean;
  busy: boolean;
  error: unknown;
  notice?: string | null;
  initialEmail?: string;
  initialPassword?: string;
  onSubmit: (input: CredentialsInput) => void;
}) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState(initialPassword);
  const [totp, setTotp] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ email, password, ...(needsCode ? { totp_code: totp.trim() } : {}) });
  };

  return (
    <form className="card" onSubmit={submit} aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to Gatehouse</h1>
      {notice && <p className="notice" role="status">{notice}</p>}
      <label htmlFor="email">Email</label>
      <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <label htmlFor="password">Password</label>
      <input id="password" type="password" autoComplete="current-password" required value={password}
        onChange={(e) => setPassword(e.target.value)} />
      {needsCode && <>
        <label htmlFor="totp">Authenticator code</label>
        <input id="totp" inputMode="numeric" autoComplete="one-time-code" maxLength={16} required value={totp}
          aria-describedby="totp-hint" onChange={(e) => setTotp(e.target.value)} />
        <small id="totp-hint" className="muted">The 6-digit code of your authenticator app, or a backup code.</small>
      </>}
      <SignInError error={error} />
      <button type="submit" disabled={busy}>{needsCode ? 'Verify' : 'Sign in'}</button>
    </form>
  );
}
