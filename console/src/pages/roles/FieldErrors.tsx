import { ApiError } from '../../api';

/** The per-field messages of a 400 VALIDATION_ERROR (`details: {field: [messages]}`), beside the form that sent it. */
export function FieldErrors({ error }: { error: unknown }) {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const details = error.body.details;
  if (!details || typeof details !== 'object' || Array.isArray(details)) return null;
  const entries = Object.entries(details as Record<string, unknown>)
    .map(([field, messages]) => [field, Array.isArray(messages) ? messages.map(String).join(' ') : String(messages)] as const);
  if (entries.length === 0) return null;
  return (
    <ul className="error" aria-label="Problems with the form">
      {entries.map(([field, text]) => <li key={field}><strong>{field === 'non_field_errors' ? 'Form' : field}:</strong> {text}</li>)}
    </ul>
  );
}
