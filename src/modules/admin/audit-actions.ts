import { AppError } from '../../core/errors.js';

/**
 * Event types whose Tenxyte SDK action code (docs/migrating-from-tenxyte.md, rule 21) is spelled differently. Every other event type
 * is its own action code (`login`, `login_failed`, `logout`, `token_refresh`, `password_change`, `2fa_enabled`, …).
 * Only one-to-one renames belong here, so an action names exactly one event type and filters by it.
 */
const ACTION_OF_EVENT: Readonly<Record<string, string>> = {
  register: 'account_created',
  password_reset_requested: 'password_reset_request',
  password_reset: 'password_reset_complete',
  user_role_assigned: 'role_assigned',
  user_role_removed: 'role_removed',
  application_created: 'app_created',
  application_credentials_regenerated: 'app_credentials_regenerated',
};

const EVENT_OF_ACTION: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ACTION_OF_EVENT).map(([event, action]) => [action, event]),
);

export const actionOf = (eventType: string): string => ACTION_OF_EVENT[eventType] ?? eventType;

const eventOf = (action: string): string => EVENT_OF_ACTION[action] ?? action;

/** The event type to filter by, from `event_type` and/or its alias `action`; 400 naming `action` when they disagree. */
export function eventTypeFilter(query: { event_type?: string; action?: string }): string | undefined {
  if (query.action === undefined) return query.event_type;
  const fromAction = eventOf(query.action);
  if (query.event_type !== undefined && query.event_type !== fromAction) {
    throw AppError.validation({ action: ['Names another event than event_type; send one of them.'] });
  }
  return fromAction;
}
