import { ApiError } from '../../api';
import { fieldErrorsOf } from './lists';

/**
 * The field messages of a 400 answer, beside the form that sent it, each named by its field: ErrorMessage gives the
 * code and the summary, this says which entry is wrong.
 */
export function FieldErrorList({ error, labels = {} }: { error: unknown; labels?: Record<string, string> }) {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const entries = Object.entries(fieldErrorsOf(error.body));
  if (entries.length === 0) return null;
  return (
    <ul className="field-errors error" aria-label="Problems with the form">
      {entries.map(([field, messages]) => (
        <li key={field}><strong>{labels[field] ?? (field === 'non_field_errors' ? 'Form' : field)}:</strong> {messages.join(' ')}</li>
      ))}
    </ul>
  );
}
