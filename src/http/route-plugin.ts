import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault,
} from 'fastify';
import type { Registry } from 'prom-client';
import type { Container } from '../container.js';
import type { Guards } from './guards/index.js';

/** What every route plugin receives: the services, the guards to declare on its routes, and where it is mounted. */
export interface RouteDeps {
  container: Container;
  guards: Guards;
  metrics: Registry | null;
  apiPrefix: string;
}

/**
 * The Fastify instance a route plugin registers on: typed by the TypeBox provider, so `req.body`, `req.query` and
 * `req.params` are the static types of the route's schemas and a handler's answer is checked against its response
 * schema (the allow-list of what may leave the process, docs/architecture.md).
 */
export type TypedApp = FastifyInstance<
  RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider
>;

export type RoutePlugin = (app: TypedApp, deps: RouteDeps) => Promise<void>;
