import { useState, type FormEvent } from 'react';
import { Field, Select } from '../../ui/Field';
import { cleanFilters, type Filters } from './filters';

export interface FilterSpec {
  name: string;
  label: string;
  type?: 'text' | 'number' | 'date' | 'search';
  /** A select's choices, `['', 'Any']` first. */
  options?: Array<[string, string]>;
  hint?: string;
  /** Folded under "More filters" until opened or set: the list stays in view on a phone. */
  more?: boolean;
}

/**
 * The filters of a list, applied on submit (not on each keystroke, so typing an address sends one request). The
 * caller keys the form by the URL's filters, so going back in history refills it.
 */
export function FilterForm({ specs, values, onApply, label }: {
  specs: FilterSpec[];
  values: Filters;
  onApply: (filters: Filters) => void;
  label: string;
}) {
  const [draft, setDraft] = useState<Filters>(values);
  const set = (name: string, value: string) => setDraft({ ...draft, [name]: value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(cleanFilters(draft));
  };
  const control = (s: FilterSpec) => (s.options ? (
    <Select key={s.name} label={s.label} value={draft[s.name] ?? ''} onChange={(e) => set(s.name, e.target.value)}>
      {s.options.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
    </Select>
  ) : (
    <Field key={s.name} label={s.label} hint={s.hint} type={s.type ?? 'text'} value={draft[s.name] ?? ''}
      {...(s.type === 'number' ? { min: 1, step: 1, inputMode: 'numeric' as const } : {})}
      onChange={(e) => set(s.name, e.target.value)} />
  ));
  const more = specs.filter((s) => s.more);
  return (
    <form className="filters" role="search" aria-label={label} onSubmit={submit}>
      {specs.filter((s) => !s.more).map(control)}
      {more.length > 0 && (
        <details className="more-filters" open={more.some((s) => values[s.name]) || undefined}>
          <summary>More filters</summary>
          <div className="filters">{more.map(control)}</div>
        </details>
      )}
      <div className="filter-actions">
        <button type="submit">Apply filters</button>
        <button type="button" className="secondary" onClick={() => { setDraft({}); onApply({}); }}>Clear</button>
      </div>
    </form>
  );
}
