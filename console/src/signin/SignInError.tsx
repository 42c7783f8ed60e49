import { ApiError } from '../api';
import { ErrorMessage } from '../ErrorMessage';
import { detailLines, retryAfterText } from './rules';

/** A refusal during sign-in: its code and words, when to try again (423, 429), and the fields a 400 names. */
export function SignInError({ error }: { error: unknown }) {
  if (!error) return null;
  const body = error instanceof ApiError ? error.body : {};
  const retry = retryAfterText(body.retry_after);
  const lines = detailLines(body.details);
  return (
    <div className="sign-in-error">
      <ErrorMessage error={error} />
      {retry && <p className="muted">{retry}</p>}
      {lines.length > 0 && <ul aria-label="What the server refused">{lines.map((line) => <li key={line}>{line}</li>)}</ul>}
    </div>
  );
}
