import type { FastifyInstance, FastifyRequest } from 'fastify';
import sjson from 'secure-json-parse';
import { sha256Hex } from '../security/random.js';

/** What secure-json-parse throws for a `__proto__` or `constructor.prototype` key. */
const FORBIDDEN_KEY_MESSAGE = 'Object contains forbidden prototype property';
/**
 * An escaped NUL (`\u0000`) that is not itself an escaped backslash followed by "u0000". PostgreSQL text cannot
 * hold NUL, and no field of this API needs it, so such a body is refused whole.
 */
const ESCAPED_NUL = /(?:^|[^\\])(?:\\\\)*\\u0000/i;
const parseError = (code: 'INVALID_JSON' | 'FORBIDDEN_JSON_KEY' | 'NUL_IN_JSON') => Object.assign(new Error(code), { code, statusCode: 400 });

/**
 * JSON bodies: an empty body with a JSON content type is read as `{}` (docs/api.md "Bodies"), `__proto__` and
 * `constructor.prototype` keys are refused rather than stripped, text containing NUL is refused, and nothing but JSON is accepted
 * (any other content type answers 415).
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parse = (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
    // An agent's approval is bound to the body exactly as sent (docs/agents.md "Human approval").
    if (req.agent) req.agent.bodySha256 = sha256Hex(body);
    const text = body.toString().trim();
    if (text === '') return done(null, {});
    if (ESCAPED_NUL.test(text)) return done(parseError('NUL_IN_JSON'), undefined);
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      // Only secure-json-parse's own refusal is a forbidden key: V8's syntax errors quote the input, which may
      // itself contain "constructor" or "prototype".
      const isForbiddenKey = (err as Error).message === FORBIDDEN_KEY_MESSAGE;
      done(parseError(isForbiddenKey ? 'FORBIDDEN_JSON_KEY' : 'INVALID_JSON'), undefined);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  app.addContentTypeParser(/^application\/[a-z0-9.+-]*\+json$/i, { parseAs: 'string' }, parse);
}
