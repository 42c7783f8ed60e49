import { useEffect, useState } from 'react';
import { loadConfig } from '../../api';

/** The access key of the console's own application: the one an operator must not switch off by accident. */
export function useConsoleKey(): string | null {
  const [key, setKey] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    loadConfig().then((config) => { if (live) setKey(config.access_key); }, () => undefined);
    return () => { live = false; };
  }, []);
  return key;
}
