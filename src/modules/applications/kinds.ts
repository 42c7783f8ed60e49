import type { ApplicationKind } from '../../db/database.js';

/**
 * The two kinds of application (docs/decisions.md "Public applications"). A confidential one runs where it can keep a secret and
 * sends key and secret on every request. A public one runs in a browser: it has no secret, so its key only names the
 * calling code, and the browser's `Origin` (which page script cannot forge) must be one of its `allowed_origins`.
 * It authenticates nothing: what a request may do still comes from the user's token alone.
 */
export const APPLICATION_KINDS = ['confidential', 'public'] as const satisfies readonly ApplicationKind[];

/** A public application admits a key-only request only from one of its origins; a confidential one has no such rule. */
export const admitsOrigin = (application: { kind: ApplicationKind; allowed_origins: readonly string[] }, origin: string | undefined) =>
  application.kind !== 'public' || (origin !== undefined && application.allowed_origins.includes(origin));

/** A public application without an origin could never be used: refused at creation and on update. */
export const originsProblem = (kind: ApplicationKind, allowedOrigins: readonly string[]): string | null =>
  (kind === 'public' && allowedOrigins.length === 0
    ? 'A public application needs at least one allowed origin: requests are accepted only from its origins.' : null);
