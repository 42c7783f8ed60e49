import type { ReactNode } from 'react';

/**
 * A destructive action asked again in place, beside what it acts on: the question, the action's own button (danger)
 * and Cancel, grouped under `label` for assistive technology and for the tests.
 */
export function InlineConfirm({ label, question, confirm, busy, onConfirm, onCancel }: {
  label: string;
  question: ReactNode;
  /** The confirming button's text, such as "Confirm revoke". */
  confirm: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <span className="confirm actions" role="group" aria-label={label}>
      <span>{question}</span>
      <button type="button" className="danger" disabled={busy} onClick={onConfirm}>{confirm}</button>
      <button type="button" className="secondary" onClick={onCancel}>Cancel</button>
    </span>
  );
}
