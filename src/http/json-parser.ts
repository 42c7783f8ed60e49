import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';

const parseError = (code: 'INVALID_JSON' | 'FORBIDDEN_JSON_KEY') => Object.assign(new Error(code), { code, statusCode: 400 });

/**
 * JSON bodies: an empty body with a JSON content type is read as `{}` (DECISIONS.md), `__proto__` and
 * `constructor.prototype` keys are refused rather than stripped, and nothing but JSON is accepted
 * (any other content type answers 415).
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parse = (_req: unknown, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
    const text = body.toString().trim();
    if (text === '') return done(null, {});
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      done(parseError(/prototype|constructor/i.test((err as Error).message) ? 'FORBIDDEN_JSON_KEY' : 'INVALID_JSON'), undefined);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  app.addContentTypeParser(/^application\/[a-z0-9.+-]*\+json$/i, { parseAs: 'string' }, parse);
}
