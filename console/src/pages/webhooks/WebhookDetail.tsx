import { useState } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { href, Link, navigate } from '../../router';
import { Notice, when } from '../../ui/Field';
import { useAction, useApi } from '../../ui/useApi';
import { Deliveries } from './Deliveries';
import type { Webhook } from './types';
import { WebhookForm, type WebhookInput } from './WebhookForm';

/** `#/webhooks/<id>`: the webhook, its settings, a test ping, deletion, and its deliveries. */
export function WebhookDetail({ id }: { id: string }) {
  const { data: hook, error, reload } = useApi<Webhook>(`webhooks/${encodeURIComponent(id)}/`);
  const save = useAction();
  const ping = useAction();
  const remove = useAction();
  const [confirming, setConfirming] = useState(false);
  const [pings, setPings] = useState(0);
  const [formKey, setFormKey] = useState(0);
  if (!hook) return <><p><Link to={href('webhooks')}>All webhooks</Link></p><ErrorMessage error={error} /></>;

  const onSave = (input: WebhookInput) => {
    void save.run(() => api<Webhook>('PATCH', `webhooks/${hook.id}/`, input), 'Saved.')
      .then((saved) => { if (saved) { reload(); setFormKey((k) => k + 1); } });
  };
  const onTest = () => {
    void ping.run(() => api('POST', `webhooks/${hook.id}/test/`), 'A test event was queued: it appears under Deliveries.')
      .then((answer) => { if (answer) setPings((n) => n + 1); });
  };
  const onDelete = () => {
    void remove.run(() => api('DELETE', `webhooks/${hook.id}/`)).then((answer) => { if (answer) navigate(href('webhooks')); });
  };

  return (
    <>
      <p><Link to={href('webhooks')}>All webhooks</Link></p>
      <section className="panel" aria-labelledby="hook-title">
        <h2 id="hook-title" className="mono">{hook.url}</h2>
        {hook.description && <p className="hook-description">{hook.description}</p>}
        <p>{hook.is_active ? <span className="badge good">active</span> : <span className="badge bad">inactive</span>}
          <span className="muted"> · created {when(hook.created_at)} · updated {when(hook.updated_at)}</span></p>
        <div className="actions">
          <button type="button" onClick={onTest} disabled={ping.busy}>Send a test event</button>
          <button type="button" className="danger" onClick={() => setConfirming(true)}>Delete webhook</button>
        </div>
        <ErrorMessage error={ping.error} />
        <Notice>{ping.done}</Notice>
        {confirming && (
          <div className="panel confirm" role="group" aria-label="Confirm deletion">
            <p>Delete this webhook? Events stop being sent to <span className="mono">{hook.url}</span>.</p>
            <div className="actions">
              <button type="button" className="danger" disabled={remove.busy} onClick={onDelete}>Yes, delete</button>
              <button type="button" className="secondary" onClick={() => setConfirming(false)}>Cancel</button>
            </div>
          </div>
        )}
        <ErrorMessage error={remove.error} />
      </section>
      <Deliveries webhookId={hook.id} version={pings} />
      <section className="panel" aria-labelledby="hook-edit">
        <h2 id="hook-edit">Settings</h2>
        <WebhookForm key={`${hook.id}-${formKey}`} initial={hook} submitLabel="Save changes" busy={save.busy} error={save.error} onSubmit={onSave} />
        <Notice>{save.done}</Notice>
      </section>
    </>
  );
}
