import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../ErrorMessage';
import { Checkbox, Field, TextArea } from '../../ui/Field';
import { FieldErrorList } from '../applications/FieldErrorList';
import { EVENT_GROUPS, toggleEvent, unknownEvents } from './events';
import type { Webhook } from './types';

export interface WebhookInput { url: string; events: string[]; description: string; is_active: boolean }

/** Create and edit: the URL, the events chosen from the known list (grouped), a description and Active. */
export function WebhookForm({ initial, submitLabel, busy, error, onSubmit, onCancel }: {
  initial?: Webhook;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (input: WebhookInput) => void;
  onCancel?: () => void;
}) {
  const [url, setUrl] = useState(initial?.url ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [events, setEvents] = useState<string[]>(initial?.events ?? []);
  const [active, setActive] = useState(initial?.is_active ?? true);
  const extra = unknownEvents(events);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ url: url.trim(), events, description, is_active: active });
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field label="URL" type="url" required value={url} onChange={(e) => setUrl(e.target.value)}
        hint="An http(s) address receiving signed POSTs." />
      <TextArea label="Description" value={description} maxLength={1000} onChange={(e) => setDescription(e.target.value)} />
      <fieldset className="event-groups">
        <legend>Events</legend>
        {EVENT_GROUPS.map((group) => (
          <fieldset key={group.label} className="event-group">
            <legend>{group.label}</legend>
            {group.events.map((e) => (
              <Checkbox key={e} label={e} checked={events.includes(e)} onChange={(ev) => setEvents(toggleEvent(events, e, ev.target.checked))} />
            ))}
          </fieldset>
        ))}
        {extra.length > 0 && <p className="muted">Also subscribed (unknown to this console): {extra.join(', ')}</p>}
        <div className="actions">
          <button type="button" className="secondary" onClick={() => setEvents(EVENT_GROUPS.flatMap((g) => g.events).filter((e) => e !== 'webhook.test'))}>
            Choose every event</button>
          <button type="button" className="secondary" onClick={() => setEvents([])}>Clear the events</button>
        </div>
      </fieldset>
      <Checkbox label="Active" checked={active} onChange={(e) => setActive(e.target.checked)} />
      <ErrorMessage error={error} />
      <FieldErrorList error={error} labels={{ url: 'URL', events: 'Events', description: 'Description' }} />
      <div className="actions">
        <button type="submit" disabled={busy}>{submitLabel}</button>
        {onCancel && <button type="button" className="secondary" onClick={onCancel}>Cancel</button>}
      </div>
    </form>
  );
}
