import { useState } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { href, Link, navigate } from '../../router';
import { Notice, when } from '../../ui/Field';
import { useAction, useApi } from '../../ui/useApi';
import { ApplicationForm, type ApplicationInput } from './ApplicationForm';
import { SecretOnce } from './SecretOnce';
import type { Application, Credentials } from './types';

/** The phrase `applications/<id>/regenerate/` requires (src/modules/applications): sent once the operator confirms here. */
const REGENERATE_PHRASE = 'REGENERATE';

export function ApplicationDetail({ id, consoleKey }: { id: string; consoleKey: string | null }) {
  const { data: app, error, reload } = useApi<Application>(`applications/${encodeURIComponent(id)}/`);
  const save = useAction();
  const regenerate = useAction();
  const remove = useAction();
  const [confirming, setConfirming] = useState<'regenerate' | 'delete' | null>(null);
  const [fresh, setFresh] = useState<Credentials | null>(null);
  const [formKey, setFormKey] = useState(0);

  if (!app) return <><p><Link to={href('applications')}>All applications</Link></p><ErrorMessage error={error} /></>;
  const isConsole = consoleKey !== null && app.access_key === consoleKey;

  const onSave = (input: ApplicationInput) => {
    void save.run(() => api<Application>('PATCH', `applications/${app.id}/`, input), 'Saved.').then((saved) => {
      if (saved) { reload(); setFormKey((k) => k + 1); }
    });
  };
  const onRegenerate = () => {
    void regenerate.run(() => api<Credentials>('POST', `applications/${app.id}/regenerate/`, { confirmation: REGENERATE_PHRASE }))
      .then((answer) => { if (answer) { setFresh(answer); setConfirming(null); reload(); } });
  };
  const onDelete = () => {
    void remove.run(() => api('DELETE', `applications/${app.id}/`)).then((answer) => { if (answer) navigate(href('applications')); });
  };

  return (
    <>
      <p><Link to={href('applications')}>All applications</Link></p>
      <section className="panel" aria-labelledby="app-title">
        <h2 id="app-title">{app.name} {isConsole && <span className="badge">this console</span>}</h2>
        {isConsole && (
          <p className="error" role="note"><strong>This is the console's own application.</strong> Deactivating it, deleting it
            or regenerating its key signs every operator out of this console.</p>
        )}
        <dl className="app-facts">
          <dt>Kind</dt><dd>{app.kind}</dd>
          <dt>Access key</dt><dd><code>{app.access_key}</code></dd>
          <dt>Status</dt><dd>{app.is_active ? <span className="badge good">active</span> : <span className="badge bad">inactive</span>}</dd>
          <dt>Created</dt><dd>{when(app.created_at)}</dd>
          <dt>Updated</dt><dd>{when(app.updated_at)}</dd>
        </dl>
      </section>

      {fresh && (
        <SecretOnce title="New credentials" warning="The previous credentials no longer work." onDismiss={() => setFresh(null)}
          entries={[{ label: 'Access key', value: fresh.credentials.access_key },
            ...(fresh.credentials.access_secret ? [{ label: 'Access secret', value: fresh.credentials.access_secret }] : [])]} />
      )}

      <section className="panel" aria-labelledby="app-edit">
        <h2 id="app-edit">Settings</h2>
        <ApplicationForm key={`${app.id}-${formKey}`} initial={app} submitLabel="Save changes" busy={save.busy} error={save.error}
          isConsole={isConsole} onSubmit={onSave} />
        <Notice>{save.done}</Notice>
      </section>

      <section className="panel" aria-labelledby="app-danger">
        <h2 id="app-danger">Credentials and removal</h2>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => setConfirming('regenerate')}>Regenerate credentials</button>
          <button type="button" className="danger" onClick={() => setConfirming('delete')}>Delete application</button>
        </div>
        {confirming === 'regenerate' && (
          <div className="panel confirm" role="group" aria-label="Confirm regeneration">
            <p>Replace the access key{app.kind === 'confidential' ? ' and secret' : ''} of <strong>{app.name}</strong>? The current
              ones stop working at once{isConsole ? ', and this console signs you out' : ''}.</p>
            <div className="actions">
              <button type="button" className="danger" disabled={regenerate.busy} onClick={onRegenerate}>Yes, regenerate</button>
              <button type="button" className="secondary" onClick={() => setConfirming(null)}>Cancel</button>
            </div>
          </div>
        )}
        {confirming === 'delete' && (
          <div className="panel confirm" role="group" aria-label="Confirm deletion">
            <p>Delete <strong>{app.name}</strong>? Everything that authenticates with it stops working.</p>
            <div className="actions">
              <button type="button" className="danger" disabled={remove.busy} onClick={onDelete}>Yes, delete</button>
              <button type="button" className="secondary" onClick={() => setConfirming(null)}>Cancel</button>
            </div>
          </div>
        )}
        <ErrorMessage error={regenerate.error} />
        <ErrorMessage error={remove.error} />
      </section>
    </>
  );
}
