import type { DeletionStatus } from './types';

/** The Deletion requests page's pure parts: its filters as the list's query, and the phrase that processes a request. */

/** docs/decisions.md "Account deletion": what the operator types to process a request. */
export const PROCESS_PHRASE = 'PERMANENTLY DELETE';

export const STATUSES: ReadonlyArray<{ value: DeletionStatus; label: string }> = [
  { value: 'pending', label: 'Pending' },
  { value: 'confirmation_sent', label: 'Confirmation sent' },
  { value: 'confirmed', label: 'Confirmed' },
  { value: 'completed', label: 'Completed' },
  { value: 'cancelled', label: 'Cancelled' },
];

export const OPEN: ReadonlySet<DeletionStatus> = new Set(['pending', 'confirmation_sent', 'confirmed']);

export interface DeletionFilters {
  status: string;
  user_id: string;
  date_from: string;
  date_to: string;
  /** '' any, 'true' confirmed and ending within 7 days (or ended), 'false' all others. */
  grace: string;
}

export const NO_FILTERS: DeletionFilters = { status: '', user_id: '', date_from: '', date_to: '', grace: '' };

/**
 * The query of `admin/deletion-requests/` for the filters, or what is wrong with them: the server would refuse a user id
 * that is not a number and a range that ends before it starts would show nothing, so both are said here instead.
 */
export function deletionQuery(f: DeletionFilters): { query: Record<string, string> } | { problem: string } {
  const userId = f.user_id.trim();
  if (userId && !/^[1-9]\d{0,14}$/.test(userId)) return { problem: 'User id: a positive whole number is needed.' };
  if (f.date_from && f.date_to && f.date_from > f.date_to) return { problem: 'The "from" date is after the "to" date.' };
  const query: Record<string, string> = {};
  if (f.status) query.status = f.status;
  if (userId) query.user_id = userId;
  if (f.date_from) query.date_from = f.date_from;
  if (f.date_to) query.date_to = f.date_to;
  if (f.grace === 'true' || f.grace === 'false') query.grace_period_expiring = f.grace;
  return { query };
}

/** Whether the typed phrase is the one the server asks for (exactly: it is a deliberate act). */
export const phraseMatches = (typed: string) => typed.trim() === PROCESS_PHRASE;

export const statusLabel = (status: string) => STATUSES.find((s) => s.value === status)?.label ?? status;
