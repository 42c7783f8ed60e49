import { Readable } from 'node:stream';
import type { KoaContextWithOIDC } from 'oidc-provider';

/** The largest body the provider's pre-middlewares read (the provider's own limit for its endpoints). */
const BODY_LIMIT = 56 * 1024;

/** Reads a request's body before the provider does (413 past the limit); {@link handBack} gives it back. */
export async function readBody(ctx: KoaContextWithOIDC): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) ctx.throw(413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Lets the provider read `body` as the request's body, from a stream of it. */
export function handBack(ctx: KoaContextWithOIDC, body: Buffer): void {
  // The provider reads the body from `ctx.req` and its length from the request's headers (the original request's, which
  // stays in place for everything else Koa reads of it: socket, method, URL): the length is that of the new body.
  const { headers } = ctx.request.req;
  headers['content-length'] = String(body.length);
  (ctx as { req: unknown }).req = Object.assign(Readable.from([body]), { headers });
}
