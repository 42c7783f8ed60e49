import { useState, type FormEvent } from 'react';
import { api, type Answer } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Field, Notice, TextArea } from '../../ui/Field';
import { useAction } from '../../ui/useApi';
import { FieldErrors } from './FieldErrors';

/** A permission, as `permissions/<id>/` answers it. */
export type PermissionDetail = Answer<'permissions/{id}/'>;

export interface PermissionDraft {
  code: string;
  name: string;
  description: string;
  parent_code: string;
}

/** Creating a permission (`POST permissions/`) or editing one (`PUT permissions/<id>/`; the code never changes). */
export function PermissionForm({ permission, parentCode, onSaved, onCancel }: {
  permission: PermissionDetail | null;
  parentCode: string;
  onSaved: (saved: PermissionDetail) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<PermissionDraft>({
    code: permission?.code ?? (parentCode ? `${parentCode}.` : ''), name: permission?.name ?? '',
    description: permission?.description ?? '', parent_code: parentCode,
  });
  const action = useAction();
  const set = (patch: Partial<PermissionDraft>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const common = { name: draft.name.trim(), description: draft.description.trim(), parent_code: draft.parent_code.trim() || null };
    const saved = permission
      ? await action.run(() => api<PermissionDetail>('PUT', `permissions/${permission.id}/`, common), (p) => `Permission ${p.code} saved.`)
      : await action.run(() => api<PermissionDetail>('POST', 'permissions/', { code: draft.code.trim(), ...common }),
        (p) => `Permission ${p.code} created.`);
    if (saved) {
      onSaved(saved);
      if (!permission) setDraft({ code: draft.parent_code ? `${draft.parent_code}.` : '', name: '', description: '', parent_code: draft.parent_code });
    }
  };

  return (
    <section className="panel" aria-labelledby="perm-form">
      <h2 id="perm-form">{permission ? `Edit ${permission.code}` : 'New permission'}</h2>
      <form className="form" onSubmit={(e) => void submit(e)}>
        {permission ? <p className="muted">Code <code>{permission.code}</code> (a code never changes)</p> : (
          <Field label="Permission code" required maxLength={100} value={draft.code} onChange={(e) => set({ code: e.target.value })}
            hint="Dotted lower-case, e.g. reports.export" />
        )}
        <Field label="Permission name" required maxLength={200} value={draft.name} onChange={(e) => set({ name: e.target.value })} />
        <TextArea label="Permission description" maxLength={1000} value={draft.description} onChange={(e) => set({ description: e.target.value })} />
        <Field label="Parent code" maxLength={100} value={draft.parent_code} onChange={(e) => set({ parent_code: e.target.value })}
          hint="Empty for a root; holding the parent grants this permission." />
        <ErrorMessage error={action.error} />
        <FieldErrors error={action.error} />
        <Notice>{action.done}</Notice>
        <div className="actions">
          <button type="submit" disabled={action.busy}>{permission ? 'Save permission' : 'Create permission'}</button>
          {(permission || parentCode) && <button type="button" className="secondary" onClick={onCancel}>Cancel</button>}
        </div>
      </form>
    </section>
  );
}
