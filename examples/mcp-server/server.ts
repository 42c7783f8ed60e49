/**
 * An MCP server (Streamable HTTP, stateless) whose clients sign in with Gatehouse: it publishes its Protected Resource
 * Metadata, answers a request without a valid access token with a 401 challenge that points at it, checks each token
 * offline against Gatehouse's key set, and asks Gatehouse's `ai/authorize/` before each tool runs.
 *
 * Run from the repository root:
 *   GATEHOUSE_URL=http://127.0.0.1:8000 GATEHOUSE_ACCESS_KEY=… GATEHOUSE_ACCESS_SECRET=… npx tsx examples/mcp-server/server.ts
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createGatehouseAuthorizer } from '../agent-resource-server/gatehouse-client.js';
import { createBearerCheck } from './bearer.js';
import { createTools, TOOL_PERMISSIONS } from './tools.js';

export interface McpServerOptions {
  /** Gatehouse's issuer (`SVC_PUBLIC_URL`), for example `http://127.0.0.1:8000`. */
  gatehouseUrl: string;
  /** Where Gatehouse's API is mounted under it (`SVC_API_PREFIX`, default `/api/v1/auth/`). */
  apiPrefix?: string;
  /** The application whose keys call `ai/authorize/`. */
  accessKey: string;
  accessSecret: string;
  /** The origin clients reach this server at; the MCP endpoint is `<publicUrl>/mcp`. */
  publicUrl: string;
  host?: string;
  port: number;
  /** The time tokens and approvals are checked against (tests move it). */
  now?: () => Date;
}

const ENDPOINT_PATH = '/mcp';
const METADATA_PATH = '/.well-known/oauth-protected-resource';

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

export async function startMcpServer(opts: McpServerOptions) {
  const issuer = opts.gatehouseUrl.replace(/\/$/, '');
  const resource = new URL(ENDPOINT_PATH, opts.publicUrl).href;
  const bearer = createBearerCheck({ issuer, resource, scopes: [...new Set(Object.values(TOOL_PERMISSIONS))], now: opts.now });
  const authorize = createGatehouseAuthorizer({ url: new URL(opts.apiPrefix ?? '/api/v1/auth/', `${issuer}/`).href,
    accessKey: opts.accessKey, accessSecret: opts.accessSecret });
  const tools = createTools(authorize, opts.now);

  async function handle(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse) {
    const { pathname } = new URL(req.url ?? '/', opts.publicUrl);
    // The metadata at the root well-known path and at the one suffixed with the endpoint's path (RFC 9728 §3.1):
    // clients try the suffixed one first.
    if (req.method === 'GET' && (pathname === METADATA_PATH || pathname === `${METADATA_PATH}${ENDPOINT_PATH}`)) {
      return json(res, 200, bearer.metadata, { 'cache-control': 'max-age=3600' });
    }
    if (pathname !== ENDPOINT_PATH) return json(res, 404, { error: 'Not found' });
    const checked = await bearer.check(req.headers.authorization);
    if ('challenge' in checked) return json(res, checked.status, checked.body, { 'www-authenticate': checked.challenge });
    // Stateless: no session, no stream of server-initiated messages (GET), nothing to end (DELETE).
    if (req.method !== 'POST') return json(res, 405, { error: 'Method not allowed' }, { allow: 'POST' });
    req.auth = checked; // handed to the tools as `extra.authInfo`
    const server = new McpServer({ name: 'gatehouse-example', version: '1.0.0' });
    tools.register(server);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => { void transport.close(); void server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      // Gatehouse's key set unreachable, or a fault of our own: never open, never a 401 that restarts consent.
      if (!res.headersSent) json(res, 503, { error: 'Authorization is unavailable, try again later' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    /** The MCP endpoint: register it in Gatehouse as a resource, point clients at it. */
    url: resource,
    port,
    metadataUrl: bearer.resourceMetadataUrl,
    close: () => new Promise<void>((resolve) => { http.closeAllConnections(); http.close(() => resolve()); }),
  };
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.MCP_PORT ?? 3002);
  const server = await startMcpServer({
    gatehouseUrl: process.env.GATEHOUSE_URL ?? 'http://127.0.0.1:8000',
    apiPrefix: process.env.GATEHOUSE_API_PREFIX,
    accessKey: required('GATEHOUSE_ACCESS_KEY'),
    accessSecret: required('GATEHOUSE_ACCESS_SECRET'),
    publicUrl: process.env.MCP_PUBLIC_URL ?? `http://127.0.0.1:${port}`,
    host: process.env.MCP_HOST,
    port,
  });
  process.stdout.write(`MCP endpoint ${server.url} (listening on port ${server.port})\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close());
}
