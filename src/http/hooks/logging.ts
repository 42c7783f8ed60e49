import type { FastifyRequest } from 'fastify';

/** Query parameters whose values never reach a log line. */
const SECRET_QUERY = /^(token|code|code_verifier|state|access_token|refresh_token|id_token|password|otp|otp_code|secret|key|signature)$/i;

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const k of [...params.keys()]) if (SECRET_QUERY.test(k)) params.set(k, '[redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/**
 * What a request contributes to a log line: no headers (they carry Authorization, X-Access-Secret and
 * cookies), no body, and the URL with secret query values masked.
 */
export const requestSerializer = (req: FastifyRequest) => ({
  method: req.method,
  url: redactUrl(req.url),
  ip: req.clientIp || undefined,
});

export const REDACT_PATHS = [
  'req.headers.authorization', 'req.headers["x-access-secret"]', 'req.headers.cookie', 'res.headers["set-cookie"]',
  '*.password', '*.new_password', '*.confirm_password', '*.old_password', '*.access_token', '*.refresh_token', '*.access',
  '*.refresh', '*.otp_code', '*.totp_code', '*.access_secret', '*.secret', '*.client_secret', '*.token', '*.id_token',
  '*.mfa_token',
];
