import { ApiError } from './api';

/** An API refusal in words, with its code; anything else as its message. Always text, never markup. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const [code, message] = error instanceof ApiError ? [error.code, error.message]
    : ['ERROR', error instanceof Error ? error.message : String(error)];
  return <p className="error" role="alert"><span className="code">{code}</span> {message}</p>;
}
