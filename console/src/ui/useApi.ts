import { useCallback, useEffect, useState } from 'react';
import { api } from '../api';

/** One API answer, fetched when `path` changes (null: nothing to fetch), with `reload`. */
export function useApi<T>(path: string | null) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(path !== null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (path === null) return undefined;
    let live = true;
    setLoading(true);
    api<T>('GET', path).then(
      (answer) => { if (live) { setData(answer); setError(null); } },
      (err: unknown) => { if (live) setError(err); },
    ).finally(() => { if (live) setLoading(false); });
    return () => { live = false; };
  }, [path, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, loading, reload };
}

/**
 * An action a button or form starts: `run` calls it, keeps `busy` while it runs, and keeps its refusal in `error`
 * (shown with ErrorMessage) or its success message in `done`.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = useCallback(async <T,>(action: () => Promise<T>, success?: string | ((answer: T) => string)): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const answer = await action();
      if (success) setDone(typeof success === 'function' ? success(answer) : success);
      return answer;
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, done, run, clear: () => { setError(null); setDone(null); } };
}
