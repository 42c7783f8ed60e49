/**
 * Redirect URIs and allowed origins are edited as one entry a line: the API takes arrays, operators paste lists.
 * Blank lines and surrounding spaces are noise, repeats are dropped; what the server refuses it says in words.
 */
export function parseLines(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const entry = line.trim();
    if (entry) seen.add(entry);
  }
  return [...seen];
}

export const joinLines = (entries: readonly string[]): string => entries.join('\n');

/** A field's messages, by field name (`non_field_errors` for the form as a whole). */
export type FieldErrors = Record<string, string[]>;

/**
 * The field errors of a 400 answer: the API's `{code: VALIDATION_ERROR, details: {field: [...]}}`, or the bare field
 * map some routes answer (organization create). Anything else has none.
 */
export function fieldErrorsOf(body: unknown): FieldErrors {
  if (!body || typeof body !== 'object') return {};
  const record = body as Record<string, unknown>;
  const source = record.details && typeof record.details === 'object' ? record.details as Record<string, unknown>
    : 'code' in record ? {} : record;
  const errors: FieldErrors = {};
  for (const [field, value] of Object.entries(source)) {
    const messages = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
    if (messages.length) errors[field.replace(/\.\d+$/, '')] = [...(errors[field.replace(/\.\d+$/, '')] ?? []), ...messages];
  }
  return errors;
}
