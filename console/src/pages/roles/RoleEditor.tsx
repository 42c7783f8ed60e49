import { useEffect, useState, type FormEvent } from 'react';
import { api, type Answer } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { href, Link, navigate } from '../../router';
import { Checkbox, Field, Notice, TextArea, when } from '../../ui/Field';
import { useAction, useApi } from '../../ui/useApi';
import { FieldErrors } from './FieldErrors';
import { PermissionTree } from './PermissionTree';
import { sortedCodes, toggle } from './tree';
import { usePermissionTree } from './usePermissionTree';

type Role = Answer<'roles/{id}/'>;

/** `#/roles/new` and `#/roles/<id>`: a role's fields and its permissions, picked in the permission tree. */
export function RoleEditor({ id, created = false }: { id: string | null; created?: boolean }) {
  const loaded = useApi<Role>(id ? `roles/${id}/` : null);
  const role = loaded.data;
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isDefault, setIsDefault] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirmDelete, setConfirmDelete] = useState(false);
  const tree = usePermissionTree();
  const save = useAction();
  const del = useAction();

  useEffect(() => {
    if (!role) return;
    setName(role.name);
    setDescription(role.description);
    setIsDefault(role.is_default);
    setSelected(new Set(role.permissions.map((p) => p.code)));
  }, [role]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { name: name.trim(), description: description.trim(), is_default: isDefault, permission_codes: sortedCodes(selected) };
    if (id) {
      const answer = await save.run(() => api<Role>('PUT', `roles/${id}/`, body), 'Role saved.');
      if (answer) loaded.reload();
    } else {
      const answer = await save.run(() => api<Role>('POST', 'roles/', { ...body, ...(code.trim() ? { code: code.trim() } : {}) }));
      if (answer) navigate(href('roles', answer.id, { created: '1' }));
    }
  };
  const remove = async () => {
    if (!id) return;
    const answer = await del.run(() => api<{ message: string }>('DELETE', `roles/${id}/`));
    if (answer) navigate(href('roles'));
    else setConfirmDelete(false);
  };

  if (id && !role) return <><ErrorMessage error={loaded.error} />{loaded.loading && <p aria-busy="true">Loading…</p>}</>;
  return (
    <>
      <p><Link to={href('roles')}>← All roles</Link></p>
      <form className="role-layout" onSubmit={(e) => void submit(e)} aria-label={id ? `Edit role ${role?.code ?? ''}` : 'New role'}>
        <section className="panel form" aria-labelledby="role-fields">
          <h2 id="role-fields">{id ? `Role ${role?.code ?? ''}` : 'New role'}</h2>
          {created && !save.done && <Notice>Role created.</Notice>}
          {id ? <p className="muted">Code <code>{role?.code}</code> · created {when(role?.created_at)} · updated {when(role?.updated_at)}</p> : (
            <Field label="Code" value={code} maxLength={100} pattern="[a-z0-9_:\-]+(\.[a-z0-9_:\-]+)*" onChange={(e) => setCode(e.target.value)}
              hint="Lower-case letters, digits, _ - : in dot-separated parts; left empty, it is derived from the name." />
          )}
          <Field label="Name" value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} />
          <TextArea label="Description" value={description} maxLength={1000} onChange={(e) => setDescription(e.target.value)} />
          <Checkbox label="Default role (given to every new account)" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} />
          <h3>Chosen permissions ({selected.size})</h3>
          <ul className="chosen" aria-label="Chosen permissions">
            {selected.size === 0 && <li className="muted">None.</li>}
            {sortedCodes(selected).map((c) => (
              <li key={c}><span className="badge">{c}</span>{' '}
                <button type="button" className="secondary" aria-label={`Take away ${c}`} onClick={() => setSelected((s) => toggle(s, c, false))}>×</button>
              </li>
            ))}
          </ul>
          <ErrorMessage error={save.error} />
          <FieldErrors error={save.error} />
          <Notice>{save.done}</Notice>
          <div className="actions">
            <button type="submit" disabled={save.busy}>{id ? 'Save role' : 'Create role'}</button>
            {id && !confirmDelete && <button type="button" className="danger" onClick={() => { del.clear(); setConfirmDelete(true); }}>Delete role</button>}
          </div>
          {id && confirmDelete && (
            <div className="confirm" role="group" aria-label="Confirm the deletion">
              <p>Delete the role {role?.code}? Every account holding it loses its permissions.</p>
              <div className="actions">
                <button type="button" className="danger" disabled={del.busy} onClick={() => void remove()}>Confirm delete</button>
                <button type="button" className="secondary" onClick={() => setConfirmDelete(false)}>Cancel</button>
              </div>
            </div>
          )}
          <ErrorMessage error={del.error} />
        </section>
        <section className="panel" aria-labelledby="role-permissions">
          <h2 id="role-permissions">Permissions</h2>
          <p className="muted">Holding a permission also grants the ones under it.</p>
          <PermissionTree tree={tree} label="Permission tree" selected={selected} onToggle={(c, on) => setSelected((s) => toggle(s, c, on))} />
        </section>
      </form>
    </>
  );
}
