import type { CreatedToken } from './types';

/** The raw agent token, shown this once: only its hash is stored. */
export function TokenOnce({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  return (
    <section aria-labelledby="token-once-title" className="panel">
      <h2 id="token-once-title">Token for {created.agent_id}</h2>
      <p><strong>Save it now:</strong> it is not shown again. The agent sends it as <code>Authorization: AgentBearer …</code>.</p>
      <code className="secret" aria-label="Agent token">{created.token}</code>
      <div className="actions">
        <button type="button" onClick={onDone}>I have saved it</button>
      </div>
    </section>
  );
}
