/**
 * The event types a webhook can subscribe to (docs/webhooks.md "Events and their payloads"), plus `webhook.test`, the ping that
 * `POST webhooks/<id>/test/` sends. docs/webhooks.md shows each one's `data`.
 */
export const WEBHOOK_EVENTS = [
  'user.created', 'user.updated', 'user.deleted', 'user.locked', 'user.banned',
  'session.created', 'session.revoked', 'login.failed', 'password.changed', '2fa.enabled', '2fa.disabled',
  'organization.member_added', 'organization.member_removed', 'deletion.requested', 'deletion.completed',
  'agent.suspended', 'agent.action_pending', 'webhook.test',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/**
 * An event's `data`: ids, emails, reasons and timestamps — never a secret, a code or a token. Values are plain JSON.
 */
export type EventData = Record<string, string | number | boolean | null | string[] | number[]>;

/** Fields of a stored `data` that name or locate a person: blanked when the account's deletion completes. */
export const PERSONAL_FIELDS = ['email', 'phone', 'first_name', 'last_name', 'ip_address'] as const;
