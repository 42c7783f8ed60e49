/**
 * The event types a webhook may subscribe to (src/modules/webhooks/events.ts, docs/webhooks.md): the API has no
 * endpoint listing them, so the console keeps the list, grouped as the documentation groups them.
 */
export const EVENT_GROUPS: ReadonlyArray<{ label: string; events: readonly string[] }> = [
  { label: 'Users', events: ['user.created', 'user.updated', 'user.deleted', 'user.locked', 'user.banned'] },
  { label: 'Sessions and security', events: ['session.created', 'session.revoked', 'login.failed', 'password.changed', '2fa.enabled', '2fa.disabled'] },
  { label: 'Organizations', events: ['organization.member_added', 'organization.member_removed'] },
  { label: 'Account deletion', events: ['deletion.requested', 'deletion.completed'] },
  { label: 'Agents', events: ['agent.suspended', 'agent.action_pending'] },
  { label: 'Test', events: ['webhook.test'] },
];

export const ALL_EVENTS: readonly string[] = EVENT_GROUPS.flatMap((g) => g.events);

/** `chosen` with `event` added or taken out, kept in the list's order so a saved webhook reads the same every time. */
export function toggleEvent(chosen: readonly string[], event: string, on: boolean): string[] {
  const set = new Set(chosen);
  if (on) set.add(event);
  else set.delete(event);
  return [...ALL_EVENTS.filter((e) => set.has(e)), ...[...set].filter((e) => !ALL_EVENTS.includes(e))];
}

/** Events a stored webhook lists that the console does not know (a newer server): kept, and shown. */
export const unknownEvents = (chosen: readonly string[]): string[] => chosen.filter((e) => !ALL_EVENTS.includes(e));

/** A short account of a subscription for a table cell. */
export function eventSummary(events: readonly string[]): string {
  const known = ALL_EVENTS.filter((e) => e !== 'webhook.test');
  if (known.every((e) => events.includes(e))) return 'all events';
  return events.length <= 3 ? events.join(', ') : `${events.slice(0, 3).join(', ')} and ${events.length - 3} more`;
}
