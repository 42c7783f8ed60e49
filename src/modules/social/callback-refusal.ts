/**
 * A provider's refusal on the redirect back (RFC 6749 §4.1.2.1: `error`, with an optional `error_description`), as
 * the application-header form of `callback/` reports it in `details` (docs/social-login.md). The text comes from
 * whoever wrote the URL, so only those two parameters are kept, each cut short and reduced to the printable ASCII
 * RFC 6749 allows in them; nothing else from the provider is echoed.
 */
export interface ProviderRefusal {
  error: string;
  error_description?: string;
}

/** RFC 6749's error codes are short words; a description is a sentence for a developer. */
export const MAX_ERROR_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 200;

const printable = (value: string, max: number) => value.replace(/[^\x20-\x7e]/g, '').trim().slice(0, max);

/** The refusal a callback query carries: any `error` is one (as in the browser flow), whatever is left of its text. */
export function providerRefusal(query: { error?: string | undefined; error_description?: string | undefined }): ProviderRefusal | undefined {
  if (!query.error) return undefined;
  const error = printable(query.error, MAX_ERROR_LENGTH);
  const description = query.error_description === undefined ? '' : printable(query.error_description, MAX_DESCRIPTION_LENGTH);
  return description ? { error, error_description: description } : { error };
}
