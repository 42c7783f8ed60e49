import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Field, TextArea } from '../../ui/Field';
import { useAction } from '../../ui/useApi';
import { phraseMatches, PROCESS_PHRASE } from './filters';
import type { DeletionRequest, ProcessAnswer } from './types';

/** Processes one request for good: the phrase typed out, optional notes; the answer goes to `onProcessed`. */
export function ProcessForm({ request, onProcessed }: { request: DeletionRequest; onProcessed: (answer: ProcessAnswer) => void }) {
  const [phrase, setPhrase] = useState('');
  const [notes, setNotes] = useState('');
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const done = await action.run(() => api<ProcessAnswer>('POST', `admin/deletion-requests/${request.id}/process/`,
      { confirmation: phrase.trim(), ...(notes.trim() ? { admin_notes: notes.trim() } : {}) }));
    if (done) onProcessed(done);
  };

  return (
    <section className="panel danger-zone" aria-labelledby="process-title">
      <h2 id="process-title">Process this request</h2>
      {request.status !== 'confirmed' && (
        <p className="muted">The user has not confirmed this request yet: the server processes confirmed requests only.</p>
      )}
      <form className="form" onSubmit={submit}>
        <p>Processing deletes the account for good: its personal data is anonymized. Type <code>{PROCESS_PHRASE}</code> to go on.</p>
        <Field label="Confirmation phrase" autoComplete="off" value={phrase} onChange={(e) => setPhrase(e.target.value)}
          hint={`Exactly: ${PROCESS_PHRASE}`} />
        <TextArea label="Admin notes" maxLength={2000} value={notes} onChange={(e) => setNotes(e.target.value)} hint="Optional, kept with the request." />
        <ErrorMessage error={action.error} />
        <div className="actions">
          <button type="submit" className="danger" disabled={action.busy || !phraseMatches(phrase)}>Process deletion</button>
        </div>
      </form>
    </section>
  );
}
