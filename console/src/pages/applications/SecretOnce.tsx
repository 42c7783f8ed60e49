import { useState } from 'react';

/**
 * A secret the server shows this once (it keeps only a hash): shown in a `.secret` block with the warning, held in
 * the component's memory only, so it is gone once the view changes.
 */
export function SecretOnce({ title, entries, warning, onDismiss }: {
  title: string;
  entries: Array<{ label: string; value: string }>;
  warning?: string;
  onDismiss: () => void;
}) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = (label: string, value: string) => {
    navigator.clipboard?.writeText(value).then(() => setCopied(label), () => setCopied(null));
  };
  return (
    <section className="panel secret-once" aria-labelledby="secret-once-title">
      <h2 id="secret-once-title">{title}</h2>
      <p className="error" role="alert"><strong>Save it now:</strong> it is shown this once and cannot be displayed again.
        {warning ? ` ${warning}` : ''}</p>
      <dl className="secret-entries">
        {entries.map(({ label, value }) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <code className="secret" aria-label={label}>{value}</code>
              <button type="button" className="secondary" onClick={() => copy(label, value)}>Copy {label.toLowerCase()}</button>
              {copied === label && <span role="status" className="notice"> Copied.</span>}
            </dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={onDismiss}>I have saved it</button>
    </section>
  );
}
