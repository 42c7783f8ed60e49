import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest, preParsingHookHandler } from 'fastify';
import { AppError } from '../core/errors.js';

/**
 * Whether a request carried a body at all, for the one route where that matters (docs/migrating-from-tenxyte.md, rule 13): the JSON
 * parser reads an empty JSON body as `{}`, so only the bytes themselves tell `{}` from nothing.
 */
const bytesRead = new WeakMap<FastifyRequest, number>();

/** preParsing hook: counts the body's bytes as the parser reads them; a body never read counts zero. */
export const countBodyBytes: preParsingHookHandler = (req, _reply, payload, done) => {
  bytesRead.set(req, 0);
  const counter = Object.assign(new Transform({
    transform(chunk: Buffer, _encoding, next) {
      const total = (bytesRead.get(req) ?? 0) + chunk.length;
      bytesRead.set(req, total);
      // Fastify matches this against Content-Length (nothing is decoded here: raw and read bytes are the same).
      counter.receivedEncodedLength = total;
      next(null, chunk);
    },
  }), { receivedEncodedLength: 0 });
  payload.on('error', (err) => counter.destroy(err));
  done(null, payload.pipe(counter));
};

export const hasBody = (req: FastifyRequest): boolean => (bytesRead.get(req) ?? 0) > 0;

/**
 * In `scope` only, a body of zero bytes is accepted whatever its Content-Type (read as none); any other non-JSON body
 * still answers 415, as everywhere else.
 */
export function acceptEmptyBodyOfAnyType(scope: FastifyInstance): void {
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body: Buffer, done) => {
    if (body.length === 0) return done(null, undefined);
    done(new AppError('UNSUPPORTED_MEDIA_TYPE'), undefined);
  });
}
