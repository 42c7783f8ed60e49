import { createHmac, randomBytes } from 'node:crypto';
import type { Config } from '../../config/settings.js';
import { addSeconds, toIso, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db } from '../../db/database.js';
import { sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import { auditOrigin } from '../rbac/actor.js';
import type { AgentContext } from './agent-context.js';
import type { TokenOwner } from './agent-tokens.service.js';
import * as repo from './pending-actions.repo.js';
import {
  toActionRow, type ConfirmationTokenInput, type DecisionStatus, type PendingActionBody, type PendingActionListInput,
} from './pending-actions.schemas.js';

type Deps = { db: Db; clock: Clock; config: Config; audit: AuditService; key: Buffer; events: WebhookEvents };

/** A request an agent makes that needs the delegating user's approval, as the approval is bound to it. */
export interface ActionRequest {
  agent: AgentContext;
  permission: string | null;
  /** Upper-case. */
  method: string;
  /** The path as the route sees it, with its query string, parameters sorted ({@link canonicalPath}). */
  path: string;
  orgSlug: string | null;
  /** Hex SHA-256 of the raw body bytes; the hash of '' when there is none. */
  bodySha256: string;
  /** The parsed body, stored redacted for the delegating user to read. */
  payload: unknown;
  /** `X-Action-Confirmation`. */
  confirmation: string | undefined;
}

export type GateOutcome = { kind: 'proceed' } | { kind: 'pending'; body: PendingActionBody };

/** An HMAC-SHA256 in base64url. */
const CONFIRMATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const REDACTED = '***REDACTED***';
const SECRET_WORDS = new Set(['password', 'passwd', 'passphrase', 'pwd', 'secret', 'secrets', 'token', 'tokens', 'otp', 'totp',
  'code', 'pin', 'cvv', 'cvc', 'credential', 'credentials', 'signature', 'apikey', 'authorization', 'cookie']);
const SECRET_PAIRS = new Set(['api key', 'private key', 'signing key', 'encryption key']);
/** Deeper than this a payload is not kept (a body of nested arrays cannot exhaust the stack). */
const MAX_DEPTH = 32;

/** Whether a key names a secret: one of its words (snake_case, kebab-case or camelCase) is password-, token- or code-like. */
function isSecretKey(key: string): boolean {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  return words.some((w, i) => SECRET_WORDS.has(w) || (i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${w}`)));
}

/** A body as it may be stored and shown: the values of secret-like keys, at any depth, replaced. */
export function redactPayload(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactPayload(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretKey(k) ? REDACTED : redactPayload(v, depth + 1)]));
}

const paramName = (pair: string) => {
  const eq = pair.indexOf('=');
  return eq === -1 ? pair : pair.slice(0, eq);
};

/**
 * A URL's path and query string with the parameters sorted by name (a stable sort: repeated parameters keep their
 * order) and empty pairs dropped, so the same request with its parameters in another order binds the same. Names
 * and values are compared as sent, not decoded: a differently encoded request is another request.
 */
export function canonicalPath(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const pairs = url.slice(q + 1).split('&').filter((p) => p !== '');
  pairs.sort((a, b) => {
    const [x, y] = [paramName(a), paramName(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return pairs.length > 0 ? `${url.slice(0, q)}?${pairs.join('&')}` : url.slice(0, q);
}

/** Whether a stored action is the one this request repeats: same token, permission, method, path, organization and body. */
const isBoundTo = (action: repo.ActionBinding, r: ActionRequest) =>
  action.agent_token_id === r.agent.tokenId && action.user_id === r.agent.user.id && action.permission === r.permission
  && action.method === r.method && action.path === r.path && action.org_slug === r.orgSlug && action.body_sha256 === r.bodySha256;

const DECISIONS = {
  approved: { event: 'agent_action_approved', message: 'Action approved: the agent may now repeat its request, once.' },
  rejected: { event: 'agent_action_rejected', message: 'Action rejected: the agent\'s request will not run.' },
} as const;

/**
 * docs/decisions.md "Agents", human approval. An agent call that needs approval is recorded as a pending action and
 * answered 202 with a confirmation token; the delegating user approves or rejects it; the agent repeats the very
 * same request with `X-Action-Confirmation` and an approved action runs once.
 *
 * The confirmation token is HMAC-SHA256(key, nonce) with a random per-action nonce: only its SHA-256 and the nonce are
 * stored, so the database alone cannot yield a working token, while the delegating user's list can show it again.
 */
export function createPendingActionService({ db, clock, config, audit, key, events }: Deps) {
  const confirmationOf = (nonce: string) => createHmac('sha256', key).update(nonce).digest('base64url');

  const pendingBody = (id: number, token: string, expiresAt: Date): PendingActionBody => ({
    status: 'pending_confirmation',
    message: 'This action waits for the approval of the delegating user. Once approved, repeat the same request with '
      + 'the confirmation token in the X-Action-Confirmation header.',
    confirmation_token: token,
    expires_at: toIso(expiresAt)!,
    action_id: id,
  });

  function refuse(agent: AgentContext, code: 'ACTION_CONFIRMATION_INVALID' | 'ACTION_REJECTED'): never {
    agent.decision = 'deny';
    throw new AppError(code);
  }

  async function record(r: ActionRequest): Promise<PendingActionBody> {
    const nonce = randomBytes(32).toString('base64url');
    const token = confirmationOf(nonce);
    const now = clock.now();
    const row = await events.atomically('agent.action_pending', async (trx) => {
      const inserted = await repo.insertAction(trx, {
        agent_token_id: r.agent.tokenId, user_id: r.agent.user.id, confirmation_hash: sha256Hex(token), token_nonce: nonce,
        permission: r.permission, method: r.method, path: r.path, org_slug: r.orgSlug, body_sha256: r.bodySha256,
        payload: r.payload === undefined ? null : JSON.stringify(redactPayload(r.payload)),
        prompt_trace_id: r.agent.traceId, expires_at: addSeconds(now, config.AIRS_CONFIRMATION_LIFETIME), created_at: now,
      });
      // The confirmation token is the agent's to repeat the call with: never in the event.
      await events.emit(trx, 'agent.action_pending', { user_id: r.agent.user.id, action_id: inserted.id,
        agent_token_id: r.agent.tokenId, agent_id: r.agent.agentId, permission: r.permission, method: r.method, path: r.path,
        expires_at: inserted.expires_at.toISOString() });
      return inserted;
    });
    return pendingBody(row.id, token, row.expires_at);
  }

  /**
   * Without a confirmation: a new pending action (202). With one, the action it names, which must be bound to this
   * very request: still pending → the same 202; rejected → 403 ACTION_REJECTED; approved → consumed in one statement
   * and the request proceeds; anything else → 403 ACTION_CONFIRMATION_INVALID.
   */
  async function gate(r: ActionRequest): Promise<GateOutcome> {
    const { agent, confirmation } = r;
    if (confirmation === undefined) {
      const body = await record(r);
      agent.decision = 'pending';
      return { kind: 'pending', body };
    }
    // Looked up by the hash through the unique index: no secret is compared as a string.
    const action = CONFIRMATION_TOKEN.test(confirmation) ? await repo.findByConfirmationHash(db, sha256Hex(confirmation)) : undefined;
    if (!action || !isBoundTo(action, r)) return refuse(agent, 'ACTION_CONFIRMATION_INVALID');
    // The delegating user's refusal is final, and says more than "expired" would.
    if (action.status === 'rejected') return refuse(agent, 'ACTION_REJECTED');
    const now = clock.now();
    if (action.status === 'pending' && action.expires_at > now) {
      agent.decision = 'pending';
      return { kind: 'pending', body: pendingBody(action.id, confirmationOf(action.token_nonce), action.expires_at) };
    }
    if (action.status === 'approved' && await repo.consumeApproved(db, action.id, now)) return { kind: 'proceed' };
    return refuse(agent, 'ACTION_CONFIRMATION_INVALID');
  }

  async function list(owner: TokenOwner, query: PendingActionListInput) {
    const page = pageRequest(query);
    const { rows, count } = await repo.listPending(db, owner.id, { agentTokenId: query.agent_token_id }, clock.now(),
      { limit: page.pageSize, offset: page.offset });
    return { results: rows.map((row) => toActionRow(row, confirmationOf(row.token_nonce))), count, page };
  }

  /**
   * The delegating user's decision. Another user's action, an unknown one and one already decided or expired all
   * answer 404 NOT_FOUND: the caller learns nothing about actions that are not theirs to decide, and an action that
   * can no longer be decided is, for deciding, gone.
   */
  async function decide(owner: TokenOwner, target: repo.ActionTarget, outcome: 'approved' | 'rejected', status: DecisionStatus) {
    const row = await repo.decide(db, owner.id, target, outcome, clock.now());
    if (!row) throw new AppError('NOT_FOUND');
    const { event, message } = DECISIONS[outcome];
    // Always written (warning): this is the human authorization, or refusal, of what an agent asked to do.
    await audit.record({ event_type: event, severity: 'warning', user_id: owner.id, ...auditOrigin(owner), trace_id: row.prompt_trace_id,
      details: { action_id: row.id, token_id: row.agent_token_id, agent_id: row.agent_id, permission: row.permission,
        method: row.method, path: row.path, prompt_trace_id: row.prompt_trace_id } });
    return { status, message, action: toActionRow(row, confirmationOf(row.token_nonce)) };
  }

  /** The action a confirmation token names, for confirm/ and deny/ (a malformed token names none: 404). */
  function byToken(input: ConfirmationTokenInput): repo.ActionTarget {
    if (!CONFIRMATION_TOKEN.test(input.token)) throw new AppError('NOT_FOUND');
    return { confirmationHash: sha256Hex(input.token) };
  }

  return {
    gate,
    list,
    approve: (owner: TokenOwner, id: number) => decide(owner, { id }, 'approved', 'approved'),
    reject: (owner: TokenOwner, id: number) => decide(owner, { id }, 'rejected', 'rejected'),
    confirm: (owner: TokenOwner, input: ConfirmationTokenInput) => decide(owner, byToken(input), 'approved', 'confirmed'),
    deny: (owner: TokenOwner, input: ConfirmationTokenInput) => decide(owner, byToken(input), 'rejected', 'denied'),
  };
}

export type PendingActionService = ReturnType<typeof createPendingActionService>;
