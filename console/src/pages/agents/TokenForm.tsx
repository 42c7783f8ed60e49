import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Checkbox, Field, TextArea } from '../../ui/Field';
import { useAction } from '../../ui/useApi';
import { HeldPermissions } from './HeldPermissions';
import { EMPTY_TOKEN_FORM, tokenBody, type TokenFormValues } from './format';
import type { CreatedToken } from './types';

/** Delegates a new agent token (`POST ai/tokens/`); the raw token is handed to `onCreated`, to be shown once. */
export function TokenForm({ onCreated, onCancel }: { onCreated: (token: CreatedToken) => void; onCancel: () => void }) {
  const [values, setValues] = useState<TokenFormValues>(EMPTY_TOKEN_FORM);
  const [problem, setProblem] = useState<string | null>(null);
  const action = useAction();
  const set = (key: Exclude<keyof TokenFormValues, 'can_delegate'>) => (e: { target: { value: string } }) => setValues({ ...values, [key]: e.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const built = tokenBody(values);
    setProblem('problem' in built ? built.problem : null);
    if ('problem' in built) return;
    const created = await action.run(() => api<CreatedToken>('POST', 'ai/tokens/', built.body));
    if (created) onCreated(created);
  };

  return (
    <section aria-labelledby="new-token-title" className="panel">
      <h2 id="new-token-title">New agent token</h2>
      <form className="form" onSubmit={submit}>
        <Field label="Agent name" required maxLength={128} value={values.agent_id} onChange={set('agent_id')}
          hint="The agent's own name for itself, e.g. ops-assistant." />
        <TextArea label="Permissions" value={values.permissions} onChange={set('permissions')}
          hint="Permission codes you hold, one per line (e.g. users.view). The token gets at most these." />
        <HeldPermissions text={values.permissions} onChange={(permissions) => setValues({ ...values, permissions })} />
        <div className="form-row">
          <Field label="Lifetime (seconds)" inputMode="numeric" value={values.expires_in} onChange={set('expires_in')} />
          <Field label="Organization (slug)" value={values.organization} onChange={set('organization')} hint="Optional" />
          <Field label="Budget (USD)" inputMode="decimal" value={values.budget_limit_usd} onChange={set('budget_limit_usd')} hint="Optional" />
          <Field label="Heartbeat every (seconds)" inputMode="numeric" value={values.heartbeat_required_every}
            onChange={set('heartbeat_required_every')} hint="Optional dead man's switch" />
        </div>
        <Checkbox label="May delegate to sub-agents (narrower tokens it creates, which you can see and control)"
          checked={values.can_delegate} onChange={(e) => setValues({ ...values, can_delegate: e.target.checked })} />
        <fieldset>
          <legend>Circuit breaker (blank: the server's defaults)</legend>
          <div className="form-row">
            <Field label="Requests per minute" inputMode="numeric" value={values.max_requests_per_minute} onChange={set('max_requests_per_minute')} />
            <Field label="Requests in total" inputMode="numeric" value={values.max_requests_total} onChange={set('max_requests_total')} />
            <Field label="Consecutive denials" inputMode="numeric" value={values.max_failed_requests} onChange={set('max_failed_requests')} />
          </div>
        </fieldset>
        {problem && <p className="error" role="alert">{problem}</p>}
        <ErrorMessage error={action.error} />
        <div className="actions">
          <button type="submit" disabled={action.busy}>Create token</button>
          <button type="button" className="secondary" onClick={onCancel}>Cancel</button>
        </div>
      </form>
    </section>
  );
}
