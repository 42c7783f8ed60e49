import { useEffect, useState, type AnchorHTMLAttributes, type ReactNode } from 'react';

/**
 * The console's pages live in the URL fragment (`#/users/12?search=ann`): the server serves one page at `/console/`,
 * and a reload or a shared link opens the same view.
 */
export interface Route {
  /** The path's segments: `#/users/12` → `['users', '12']`; the dashboard is `[]`. */
  parts: string[];
  query: URLSearchParams;
}

/** Sent by `navigate` so the view follows within the same event: a controlled input changed by a click keeps its new state. */
const NAVIGATED = 'console:navigated';

function current(): Route {
  const hash = window.location.hash.replace(/^#/, '') || '/';
  const [path = '/', search = ''] = hash.split('?', 2);
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const onChange = () => setRoute(current());
    window.addEventListener('hashchange', onChange);
    window.addEventListener(NAVIGATED, onChange);
    return () => {
      window.removeEventListener('hashchange', onChange);
      window.removeEventListener(NAVIGATED, onChange);
    };
  }, []);
  return route;
}

/** `#/users/12` for `href('users', 12)`, with an optional query. */
export const href = (...parts: Array<string | number | URLSearchParams | Record<string, string>>): string => {
  const query = parts.find((p): p is URLSearchParams | Record<string, string> => typeof p === 'object');
  const path = parts.filter((p): p is string | number => typeof p !== 'object').map((p) => encodeURIComponent(String(p))).join('/');
  const search = query ? new URLSearchParams(query as Record<string, string>).toString() : '';
  return `#/${path}${search ? `?${search}` : ''}`;
};

export const navigate = (to: string) => {
  window.location.hash = to.replace(/^#/, '');
  window.dispatchEvent(new Event(NAVIGATED));
};

/** A link to another view of the console. */
export function Link({ to, children, ...rest }: { to: string; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return <a href={to} {...rest}>{children}</a>;
}
