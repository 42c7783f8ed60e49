/**
 * The MCP server's tools, each behind a Gatehouse permission. A tool runs only when Gatehouse's `POST ai/authorize/`
 * allows the call for the access token the client sent: the grant behind the token is a delegation, with its double
 * check (granted and still held by the person), its breakers and, for a permission listed in
 * `SVC_AIRS_CONFIRMATION_REQUIRED`, the person's approval (docs/oauth.md "Grants and ai/authorize/").
 */
import { createHash } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { GatehouseUnavailable, type Authorizer, type Decision } from '../agent-resource-server/gatehouse-client.js';

type Allow = Extract<Decision, { decision: 'allow' }>;

/** The permission each tool needs: what the Protected Resource Metadata lists as its scopes. */
export const TOOL_PERMISSIONS = { whoami: 'users.view', purge_cache: 'roles.manage' } as const;
export type ToolName = keyof typeof TOOL_PERMISSIONS;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const text = (message: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: message }], isError });

/** A confirmation Gatehouse handed out for a call waiting for approval, resent with the same call. */
interface Waiting { confirmation: string; expiresAt: number }

export function createTools(authorize: Authorizer, now: () => Date = () => new Date()) {
  // Keyed by token, tool and arguments: an approval is bound to one delegation and one request, so only the very same
  // call may carry it. The token is kept as a hash: this map outlives the requests that brought it.
  const waiting = new Map<string, Waiting>();
  const forget = () => {
    for (const [key, entry] of waiting) if (entry.expiresAt <= now().getTime()) waiting.delete(key);
  };

  /**
   * Gatehouse's decision on one tool call: the allow answer, or the tool result to send instead. The call is
   * described to Gatehouse as `POST /tools/<name>` with the SHA-256 of its arguments as JSON (in the order the client
   * sent them): what an approval is bound to, so a repeat with other arguments needs an approval of its own.
   */
  async function decide(tool: ToolName, args: object, auth: AuthInfo | undefined): Promise<Allow | CallToolResult> {
    // The HTTP layer refuses a request without a valid token; a tool reached without one is a wiring error.
    if (!auth) return text('Not authenticated', true);
    const bodySha256 = sha256(JSON.stringify(args));
    const key = `${sha256(auth.token)}:${tool}:${bodySha256}`;
    forget();
    const pending = waiting.get(key);
    let answer: Awaited<ReturnType<Authorizer>>;
    try {
      answer = await authorize({ permission: TOOL_PERMISSIONS[tool], method: 'POST', path: `/tools/${tool}`, bodySha256,
        authorization: `Bearer ${auth.token}`, confirmation: pending?.confirmation, traceId: undefined });
    } catch (err) {
      // No decision is a refusal: the tool never runs unless Gatehouse said so.
      if (err instanceof GatehouseUnavailable) return text('Authorization is unavailable, try again later', true);
      throw err;
    }
    const { body } = answer;
    if (body.decision === 'pending') {
      waiting.set(key, { confirmation: body.confirmation_token, expiresAt: Date.parse(body.expires_at) });
      return text(`Waiting for approval: action ${body.action_id} (${tool}) must be approved by the person in Gatehouse `
        + `before ${body.expires_at}. Call ${tool} again with the same arguments once it is approved.`, true);
    }
    // Allowed, rejected or refused: a confirmation is used once, whatever came of it.
    waiting.delete(key);
    if (body.decision === 'allow') return body;
    return text(`Gatehouse refused ${tool}: ${body.code}${body.reason ? ` (${body.reason})` : ''}`, true);
  }

  const isAllowed = (decision: Allow | CallToolResult): decision is Allow => 'decision' in decision;

  /** Registers the tools on a server (one per request: the server is stateless). */
  function register(server: McpServer) {
    server.registerTool('whoami', {
      description: 'Who this client acts for: the person\'s Gatehouse user id and email (permission users.view).',
    }, async (extra) => {
      const decision = await decide('whoami', {}, extra.authInfo);
      if (!isAllowed(decision)) return decision;
      return text(JSON.stringify({ user_id: decision.user.id, email: decision.user.email, client_id: decision.agent_id }));
    });

    server.registerTool('purge_cache', {
      description: 'Empties the cache entries under a key prefix (permission roles.manage; may wait for the person\'s approval).',
      inputSchema: { prefix: z.string().min(1).max(200) },
    }, async (args, extra) => {
      const decision = await decide('purge_cache', args, extra.authInfo);
      if (!isAllowed(decision)) return decision;
      return text(`Purged the cache entries under "${args.prefix}" for user ${decision.user.id}`);
    });
  }

  return { register };
}
