import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/settings.js';

export const REDACTED = '***REDACTED***';

/**
 * The keys whose values SVC_AIRS_REDACT_PII hides from agents (docs/decisions.md "Agents": emails, phones, names and
 * postal addresses), at any depth. Network addresses (`ip_address`) and account handles other than `username` stay.
 */
const PII_KEYS = new Set([
  'email', 'phone', 'phone_number', 'identifier',
  'first_name', 'last_name', 'middle_name', 'full_name', 'username',
  'address', 'street', 'street_address', 'address_line1', 'address_line2', 'city', 'postal_code', 'postcode', 'zip_code',
]);
/** Whole families: `user_email`, `actor_email`, `invited_email`…, `recovery_phone`… */
const PII_SUFFIXES = ['_email', '_phone'];

export const isPiiKey = (key: string): boolean => PII_KEYS.has(key) || PII_SUFFIXES.some((s) => key.endsWith(s));

/** A copy of `value` with the value of every PII key replaced by {@link REDACTED}; null stays null. */
export function redactPii(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactPii);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = v !== null && isPiiKey(key) ? REDACTED : redactPii(v);
  return out;
}

const JSON_TYPE = /^application\/(?:[a-z0-9.+-]*\+)?json\b/i;

/**
 * SVC_AIRS_REDACT_PII: successful JSON answers to agent requests go out with PII redacted (error bodies carry
 * catalogue messages and field names only). User requests are never touched; with the setting off nothing is
 * registered. Register inside the API plugin.
 */
export function registerAgentRedaction(app: FastifyInstance, config: Config): void {
  if (!config.AIRS_ENABLED || !config.AIRS_REDACT_PII) return;
  app.addHook('onSend', (req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (!req.agent || reply.statusCode >= 400 || typeof payload !== 'string' || typeof type !== 'string' || !JSON_TYPE.test(type)) {
      return done(null, payload);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return done(null, payload);
    }
    done(null, JSON.stringify(redactPii(parsed)));
  });
}
