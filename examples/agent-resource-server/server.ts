/**
 * An integrator's own API that AI agents call with their Gatehouse token (`Authorization: AgentBearer <token>`).
 * Each route names the permission it needs; a pre-handler asks Gatehouse (`POST ai/authorize/`) and maps the
 * decision: allow → the route runs, pending → 202 with the confirmation to replay once the user approved,
 * deny → 403 (401 when the token itself is unknown, expired or revoked). Gatehouse unreachable → 503: never open.
 *
 * Run from the repository root: GATEHOUSE_ACCESS_KEY=… GATEHOUSE_ACCESS_SECRET=… node --import tsx examples/agent-resource-server/server.ts
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createGatehouseAuthorizer, GatehouseUnavailable, type Authorizer, type Decision, type GatehouseOptions } from './gatehouse-client.js';

export type AllowDecision = Extract<Decision, { decision: 'allow' }>;

interface Report { id: string; title: string }

/** Who a request acted for, as the routes answer it. */
export interface ActedFor { agent_id: string; user_id: number }

/** Raw body bytes by request: the approval of an agent's action is bound to their SHA-256. */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();
/** Gatehouse's allow decision by request: who the agent acts for, read by the handlers. */
const grants = new WeakMap<FastifyRequest, AllowDecision>();

const header = (req: FastifyRequest, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** A pre-handler: the route runs only when Gatehouse allows this agent `permission` for this very request. */
function requirePermission(authorize: Authorizer, permission: string) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = await authorize({
      permission,
      method: req.method,
      path: req.url,
      bodySha256: createHash('sha256').update(rawBodies.get(req) ?? Buffer.alloc(0)).digest('hex'),
      authorization: req.headers.authorization,
      confirmation: header(req, 'x-action-confirmation'),
      traceId: header(req, 'x-prompt-trace-id'),
    });
    if (body.decision === 'allow') {
      grants.set(req, body);
      return;
    }
    if (body.decision === 'pending') return reply.code(202).send(body);
    return reply.code(status === 401 ? 401 : 403).send(body);
  };
}

const grantOf = (req: FastifyRequest): AllowDecision => {
  const grant = grants.get(req);
  if (!grant) throw new Error('route reached without a decision');
  return grant;
};

export function buildResourceServer(gatehouse: GatehouseOptions): FastifyInstance {
  const app = Fastify({ logger: false });
  const authorize = createGatehouseAuthorizer(gatehouse);
  const reports = new Map<string, Report>([['7', { id: '7', title: 'Q3 revenue' }], ['8', { id: '8', title: 'Q3 costs' }]]);

  // JSON parsed from the bytes kept for hashing: the hash must be of the body exactly as the agent sent it.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    rawBodies.set(req, bytes);
    try {
      done(null, bytes.length === 0 ? undefined : JSON.parse(bytes.toString('utf8')));
    } catch {
      done(Object.assign(new Error('Malformed JSON body'), { statusCode: 400 }), undefined);
    }
  });
  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    if (err instanceof GatehouseUnavailable) return reply.code(503).send({ error: 'Authorization is unavailable, try again later' });
    const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    return reply.code(status).send({ error: status === 500 ? 'Internal server error' : err.message });
  });

  const find = (req: FastifyRequest) => reports.get((req.params as { id: string }).id);
  const notFound = (reply: FastifyReply) => reply.code(404).send({ error: 'No such report' });
  const actor = (req: FastifyRequest): ActedFor => {
    const grant = grantOf(req);
    return { agent_id: grant.agent_id, user_id: grant.user.id };
  };

  app.get('/health', async () => ({ status: 'ok' }));

  app.get('/reports/:id', { preHandler: requirePermission(authorize, 'reports.view') }, async (req, reply) => {
    const report = find(req);
    return report ? { report, acted_for: actor(req) } : notFound(reply);
  });

  // Edits and deletions are in Gatehouse's SVC_AIRS_CONFIRMATION_REQUIRED: the delegating user approves each one.
  // The body is validated before the pre-handler runs, so an approval is never spent on a request that cannot succeed.
  app.put('/reports/:id', {
    schema: { body: { type: 'object', required: ['title'], properties: { title: { type: 'string', minLength: 1, maxLength: 200 } } } },
    preHandler: requirePermission(authorize, 'reports.edit'),
  }, async (req, reply) => {
    const report = find(req);
    if (!report) return notFound(reply);
    report.title = (req.body as { title: string }).title;
    return { report, acted_for: actor(req) };
  });

  app.delete('/reports/:id', { preHandler: requirePermission(authorize, 'reports.delete') }, async (req, reply) => {
    const report = find(req);
    if (!report) return notFound(reply);
    reports.delete(report.id);
    return { deleted: report.id, acted_for: actor(req) };
  });

  return app;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const app = buildResourceServer({
    url: process.env.GATEHOUSE_URL ?? 'http://127.0.0.1:8000/api/v1/auth/',
    accessKey: required('GATEHOUSE_ACCESS_KEY'),
    accessSecret: required('GATEHOUSE_ACCESS_SECRET'),
  });
  const address = await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3001) });
  process.stdout.write(`listening on ${address}\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close());
}
