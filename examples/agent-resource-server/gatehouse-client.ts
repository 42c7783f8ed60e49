/**
 * The one call a resource server makes to Gatehouse for an agent's request: `POST ai/authorize/` with the
 * application's keys, the agent's forwarded `AgentBearer`, and what the approval of a sensitive action is bound to
 * (method, path with its query string, SHA-256 of the raw body).
 */

export interface GatehouseOptions {
  /** Gatehouse's API base URL, ending with a slash (for example `http://127.0.0.1:8000/api/v1/auth/`). */
  url: string;
  accessKey: string;
  accessSecret: string;
  /** How long to wait for Gatehouse before failing closed (default 5000 ms). */
  timeoutMs?: number;
}

/** The agent's request as the resource server received it. */
export interface AgentRequest {
  permission: string;
  method: string;
  /** Path and query string, as received. */
  path: string;
  /** Hex SHA-256 of the raw body (of the empty string when there is none). */
  bodySha256: string;
  /** The agent's headers, forwarded as they are: `Authorization`, `X-Action-Confirmation`, `X-Prompt-Trace-ID`. */
  authorization: string | undefined;
  confirmation: string | undefined;
  traceId: string | undefined;
}

export type Decision =
  | { decision: 'allow'; agent_token_id: number; agent_id: string; user: { id: number; email: string | null }; granted_permissions: string[] }
  | { decision: 'pending'; status: 'pending_confirmation'; message: string; confirmation_token: string; expires_at: string; action_id: number }
  | { decision: 'deny'; code: string; error: string; reason?: string };

/** Gatehouse's answer: the decision and the status it came with (401 for a token that is unknown, expired or revoked). */
export interface Authorization { status: number; body: Decision }

/** Gatehouse could not decide (unreachable, misconfigured keys, a malformed call): the request must not proceed. */
export class GatehouseUnavailable extends Error {}

export function createGatehouseAuthorizer(opts: GatehouseOptions) {
  const endpoint = new URL('ai/authorize/', opts.url);
  return async function authorize(req: AgentRequest): Promise<Authorization> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-access-key': opts.accessKey,
      'x-access-secret': opts.accessSecret,
    };
    if (req.authorization !== undefined) headers.authorization = req.authorization;
    if (req.confirmation !== undefined) headers['x-action-confirmation'] = req.confirmation;
    if (req.traceId !== undefined) headers['x-prompt-trace-id'] = req.traceId;
    let res: Response;
    try {
      res = await fetch(endpoint, {
        method: 'POST', headers, signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
        body: JSON.stringify({ permission: req.permission, method: req.method, path: req.path, body_sha256: req.bodySha256 }),
      });
    } catch (err) {
      throw new GatehouseUnavailable(`Gatehouse did not answer: ${(err as Error).message}`);
    }
    const body = await res.json().catch(() => null) as Decision | null;
    // Only the three decisions are answers; anything else (a 400, a 5xx, a wrong key) fails closed.
    if (!body || !['allow', 'pending', 'deny'].includes(body.decision)) {
      throw new GatehouseUnavailable(`Gatehouse answered ${res.status} without a decision`);
    }
    return { status: res.status, body };
  };
}

export type Authorizer = ReturnType<typeof createGatehouseAuthorizer>;
