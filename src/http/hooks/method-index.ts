import type { FastifyInstance } from 'fastify';
import FindMyWay from 'find-my-way';

/**
 * Remembers every registered path with its methods, so that a request for a known path with
 * another method answers 405 (with `Allow`) instead of 404.
 */
export function createMethodIndex(app: FastifyInstance) {
  const router = FindMyWay({ ignoreTrailingSlash: true });
  const methods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    // OPTIONS is answered on every API path by the CORS preflight route; it is no path's own method.
    const list = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m.toUpperCase() !== 'OPTIONS');
    if (list.length === 0) return;
    let set = methods.get(route.url);
    if (!set) {
      set = new Set();
      methods.set(route.url, set);
      router.on('GET', route.url, () => undefined, { url: route.url });
    }
    for (const m of list) set.add(m.toUpperCase());
  });
  return {
    /** The methods allowed on this concrete path, or undefined when no route has that path. */
    allowed(path: string): string[] | undefined {
      const found = router.find('GET', path);
      const url = (found?.store as { url?: string } | undefined)?.url;
      return url ? [...(methods.get(url) ?? [])] : undefined;
    },
  };
}
