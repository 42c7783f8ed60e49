import { useState } from 'react';
import { api, ApiError, setAccessToken, type Answer, type Body } from './api';
import { Credentials, type CredentialsInput } from './signin/Credentials';
import { PasswordChange } from './signin/PasswordChange';
import { TwoFactorSetup } from './signin/TwoFactorSetup';

type TokenAnswer = Answer<'login/email/', 'post'>;

type Step = 'credentials' | '2fa-setup' | 'password-change';

/**
 * Sign-in, step by step (docs/authentication.md): email and password, the
 * authenticator code, an administrator's 2FA setup, the forced password change. Each step is its own component.
 */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [step, setStep] = useState<Step>('credentials');
  const [needsCode, setNeedsCode] = useState(false);
  const [typed, setTyped] = useState<CredentialsInput>({ email: '', password: '' });
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (input: CredentialsInput) => {
    setBusy(true);
    setError(null);
    setTyped(input);
    try {
      const body: Body<'login/email/', 'post'> = input;
      const answer = await api<TokenAnswer>('POST', 'login/email/', body);
      setAccessToken(answer.access_token);
      if (answer.token_scope === 'password_change_only') setStep('password-change');
      else if (answer.token_scope === 'deletion_pending') {
        await leave();
        setError(new Error('This account is scheduled for deletion: it cannot use the console.'));
      } else onSignedIn();
    } catch (err) {
      if (err instanceof ApiError && err.code === '2FA_REQUIRED' && !needsCode) setNeedsCode(true);
      else if (err instanceof ApiError && err.code === 'ADMIN_2FA_SETUP_REQUIRED' && typeof err.body.access_token === 'string') {
        setAccessToken(err.body.access_token);
        setStep('2fa-setup');
      } else setError(err);
    } finally {
      setBusy(false);
    }
  };

  /** Ends a restricted session (it has no use once its step is over or abandoned): logout/ revokes its token. */
  const leave = async () => {
    await api('POST', 'logout/', {}).catch(() => undefined);
    setAccessToken(null);
  };

  const restart = async (message: string | null, withCode: boolean) => {
    await leave();
    setNotice(message);
    setNeedsCode(withCode);
    setStep('credentials');
  };

  return (
    <main className="centered">
      {step === 'credentials' && <Credentials needsCode={needsCode} busy={busy} error={error} notice={notice}
        initialEmail={typed.email} initialPassword={typed.password} onSubmit={(input) => void submit(input)} />}
      {step === '2fa-setup' && <TwoFactorSetup
        onEnabled={() => void restart('Two-factor authentication is on. Sign in with a new code from your authenticator app.', true)}
        onCancel={() => void restart(null, false)} />}
      {step === 'password-change' && <PasswordChange
        onChanged={(token) => {
          if (token) { setAccessToken(token); onSignedIn(); } else void restart('Password changed. Sign in with the new one.', false);
        }}
        onCancel={() => void restart(null, false)} />}
    </main>
  );
}
