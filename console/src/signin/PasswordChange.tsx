import { useEffect, useState, type FormEvent } from 'react';
import { api, type Answer, type Body } from '../api';
import { describeRequirements, localProblem } from './rules';
import { SignInError } from './SignInError';
import './signin.css';

type ChangeAnswer = Answer<'password/change/', 'post'>;

/**
 * The forced password change (`must_change_password`, a `password_change_only` token): the current password and the
 * new one twice. The answer's full-scope access token enters the console; its refresh token stays in the cookie.
 */
export function PasswordChange({ onChanged, onCancel }: { onChanged: (accessToken: string | null) => void; onCancel: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [rules, setRules] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    // The rules are a help: without them the server still says what it refuses.
    api<Answer<'password/requirements/'>>('GET', 'password/requirements/').then((r) => { if (live) setRules(describeRequirements(r)); }, () => undefined);
    return () => { live = false; };
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const local = localProblem(current, next, again);
    setProblem(local);
    if (local) return;
    setBusy(true);
    try {
      const body: Body<'password/change/', 'post'> = { current_password: current, new_password: next };
      const answer = await api<ChangeAnswer>('POST', 'password/change/', body);
      onChanged(answer.access_token ?? null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card wide" onSubmit={submit} aria-labelledby="change-title">
      <h1 id="change-title">Change your password</h1>
      <p>Your account must change its password before using the console.</p>
      {rules.length > 0 && <>
        <p id="password-rules-title">The new password needs:</p>
        <ul aria-labelledby="password-rules-title">{rules.map((r) => <li key={r}>{r}</li>)}</ul>
      </>}
      <label htmlFor="current-password">Current password</label>
      <input id="current-password" type="password" autoComplete="current-password" required value={current}
        onChange={(e) => setCurrent(e.target.value)} />
      <label htmlFor="new-password">New password</label>
      <input id="new-password" type="password" autoComplete="new-password" required value={next} onChange={(e) => setNext(e.target.value)} />
      <label htmlFor="new-password-again">New password again</label>
      <input id="new-password-again" type="password" autoComplete="new-password" required value={again}
        onChange={(e) => setAgain(e.target.value)} />
      {problem && <p className="error" role="alert">{problem}</p>}
      <SignInError error={error} />
      <div className="actions">
        <button type="submit" disabled={busy}>Change password</button>
        <button type="button" className="secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
