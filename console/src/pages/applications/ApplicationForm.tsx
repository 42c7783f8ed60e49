import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../ErrorMessage';
import { Checkbox, Field, Select, TextArea } from '../../ui/Field';
import { FieldErrorList } from './FieldErrorList';
import { joinLines, parseLines } from './lists';
import type { Application } from './types';

export interface ApplicationInput {
  name: string;
  description: string;
  kind?: 'confidential' | 'public';
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  allowed_origins: string[];
  is_active?: boolean;
}

const LABELS = { name: 'Name', description: 'Description', kind: 'Kind', redirect_uris: 'Redirect URIs',
  post_logout_redirect_uris: 'Post-logout redirect URIs', allowed_origins: 'Allowed origins', is_active: 'Active' };

/**
 * Create (with the kind, fixed afterwards) and edit (with Active) share one form; the API's field errors are shown
 * beside it, by field, in words.
 */
export function ApplicationForm({ initial, submitLabel, busy, error, isConsole = false, onSubmit, onCancel }: {
  initial?: Application;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  /** The console's own application: switching it off signs every operator out of the console. */
  isConsole?: boolean;
  onSubmit: (input: ApplicationInput) => void;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [kind, setKind] = useState<'confidential' | 'public'>(initial?.kind ?? 'confidential');
  const [redirects, setRedirects] = useState(joinLines(initial?.redirect_uris ?? []));
  const [afterLogout, setAfterLogout] = useState(joinLines(initial?.post_logout_redirect_uris ?? []));
  const [origins, setOrigins] = useState(joinLines(initial?.allowed_origins ?? []));
  const [active, setActive] = useState(initial?.is_active ?? true);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({
      name: name.trim(), description, redirect_uris: parseLines(redirects), post_logout_redirect_uris: parseLines(afterLogout),
      allowed_origins: parseLines(origins),
      ...(initial ? { is_active: active } : { kind }),
    });
  };

  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
      <TextArea label="Description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={1000} />
      {initial ? <p><span className="muted">Kind:</span> {initial.kind} <span className="muted">(fixed at creation)</span></p> : (
        <Select label="Kind" value={kind} onChange={(e) => setKind(e.target.value as 'confidential' | 'public')}>
          <option value="confidential">confidential — server code, key and secret</option>
          <option value="public">public — browser code, key only, pinned to its origins</option>
        </Select>
      )}
      <TextArea label="Redirect URIs" hint="One absolute http(s) URL a line, matched exactly." value={redirects}
        onChange={(e) => setRedirects(e.target.value)} />
      <TextArea label="Post-logout redirect URIs" hint="Where OAuth sign-out (RP-initiated logout) may send the person back: one URL a line, matched exactly."
        value={afterLogout} onChange={(e) => setAfterLogout(e.target.value)} />
      <TextArea label="Allowed origins" hint="One origin a line, such as https://app.example.com (no path). A public application needs one."
        value={origins} onChange={(e) => setOrigins(e.target.value)} />
      {initial && <Checkbox label="Active" checked={active} onChange={(e) => setActive(e.target.checked)} />}
      {initial && isConsole && !active && (
        <p className="error" role="alert"><strong>Warning:</strong> this is the console's own application. Deactivating it
          locks every operator out of this console, you included, until it is switched on again from the command line.</p>
      )}
      <ErrorMessage error={error} />
      <FieldErrorList error={error} labels={LABELS} />
      <div className="actions">
        <button type="submit" disabled={busy}>{submitLabel}</button>
        {onCancel && <button type="button" className="secondary" onClick={onCancel}>Cancel</button>}
      </div>
    </form>
  );
}
