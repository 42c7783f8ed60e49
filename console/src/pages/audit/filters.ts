/**
 * The audit pages keep their filters in the URL (`#/audit?action=login&user_id=3`), so a reload or a shared link shows
 * the same rows. Pure helpers between the URL's query, the form's values and the API's query.
 */

export type Filters = Record<string, string>;

/** The filters `names` lists, as the URL carries them: trimmed, empty ones and unknown names left out. */
export function filtersOf(query: URLSearchParams, names: readonly string[]): Filters {
  const filters: Filters = {};
  for (const name of names) {
    const value = query.get(name)?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

/** A form's values without the empty ones, trimmed: what goes into the URL and to the API. */
export function cleanFilters(values: Filters): Filters {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()]).filter(([, v]) => v !== ''));
}

/** The filters as before, with `name` set to `value` (or removed when empty). */
export function withFilter(filters: Filters, name: string, value: string | number | null | undefined): Filters {
  return cleanFilters({ ...filters, [name]: value === null || value === undefined ? '' : String(value) });
}

/** An event's details, indented for reading: always text, whatever it holds. */
export function prettyDetails(details: unknown): string {
  if (details === null || details === undefined) return '{}';
  return JSON.stringify(details, null, 2) ?? String(details);
}

/** The badge class of a severity: warning and critical stand out, info does not. */
export function severityTone(severity: string): string {
  if (severity === 'critical') return 'badge bad';
  if (severity === 'warning') return 'badge warn';
  return 'badge';
}

/** A sign-in attempt's outcome in words. */
export const attemptOutcome = (a: { success: boolean; failure_reason: string | null }): string =>
  (a.success ? 'Succeeded' : `Failed${a.failure_reason ? `: ${a.failure_reason}` : ''}`);
