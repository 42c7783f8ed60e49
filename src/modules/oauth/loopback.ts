/** The hosts of a loopback address as URLs write them (RFC 8252 §7.3). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Whether `url` is plain `http` on a loopback address: a native client's redirect, or an API on this machine. */
export const isLoopbackHttp = (url: URL): boolean => url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
