import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { href, Link, navigate } from '../../router';
import { Checkbox, Field, Notice, TextArea, when } from '../../ui/Field';
import { useAction, useApi } from '../../ui/useApi';
import { ErrorMessage } from '../../ErrorMessage';
import { FieldErrorList } from '../applications/FieldErrorList';
import { OrgError } from './Disabled';
import { Invitations } from './Invitations';
import { Members } from './Members';
import type { Organization } from './types';
import { useOrgRoles } from './useOrgRoles';

/** `#/organizations/<slug>`: the organization's fields, its members and its invitations. */
export function OrgDetail({ slug }: { slug: string }) {
  const { data: org, error, reload } = useApi<Organization>(`organizations/${encodeURIComponent(slug)}/`);
  const roles = useOrgRoles();
  if (!org) return <><p><Link to={href('organizations')}>All organizations</Link></p><OrgError error={error} /></>;
  const can = (permission: string) => org.user_permissions.includes(permission);
  return (
    <>
      <p><Link to={href('organizations')}>All organizations</Link></p>
      <section className="panel" aria-labelledby="org-title">
        <h2 id="org-title">{org.name} {!org.is_active && <span className="badge bad">inactive</span>}</h2>
        {org.description && <p className="org-description">{org.description}</p>}
        <dl className="org-facts">
          <dt>Slug</dt><dd><code>{org.slug}</code></dd>
          <dt>Parent</dt><dd>{org.parent ? <Link to={href('organizations', org.parent.slug)}>{org.parent.name}</Link> : 'none (a root)'}</dd>
          <dt>Sub-organizations</dt>
          <dd>{org.children.length === 0 ? 'none' : (
            <ul className="inline-list">{org.children.map((c) => <li key={c.id}><Link to={href('organizations', c.slug)}>{c.name}</Link></li>)}</ul>
          )}</dd>
          <dt>Members</dt><dd>{org.member_count}{org.max_members > 0 ? ` of at most ${org.max_members}` : ' (no limit)'}</dd>
          <dt>Your role</dt><dd>{org.user_role ?? 'none'}</dd>
          <dt>Created</dt><dd>{when(org.created_at)}</dd>
        </dl>
        {can('org.manage') && (
          <p><Link to={href('organizations', { parent: String(org.id), parent_name: org.name })}>Create a sub-organization</Link></p>
        )}
      </section>
      {can('org.manage') && <EditOrg org={org} onSaved={(saved) => (saved.slug !== org.slug ? navigate(href('organizations', saved.slug)) : reload())} />}
      <Members slug={org.slug} roles={roles} onChange={reload} />
      {can('org.members.invite') && <Invitations slug={org.slug} roles={roles} />}
    </>
  );
}

function EditOrg({ org, onSaved }: { org: Organization; onSaved: (org: Organization) => void }) {
  const [name, setName] = useState(org.name);
  const [description, setDescription] = useState(org.description);
  const [maxMembers, setMaxMembers] = useState(String(org.max_members));
  const [active, setActive] = useState(org.is_active);
  const save = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim(), description, max_members: Number(maxMembers) || 0, is_active: active };
    void save.run(() => api<Organization>('PATCH', `organizations/${encodeURIComponent(org.slug)}/`, body), 'Saved.')
      .then((saved) => { if (saved) onSaved(saved); });
  };
  return (
    <section className="panel" aria-labelledby="org-edit-title">
      <h2 id="org-edit-title">Settings</h2>
      <form className="form" onSubmit={submit} noValidate>
        <Field label="Name" value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} />
        <TextArea label="Description" value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
        <Field label="Member limit" type="number" min={0} value={maxMembers} hint="0: no limit." onChange={(e) => setMaxMembers(e.target.value)} />
        <Checkbox label="Active" checked={active} onChange={(e) => setActive(e.target.checked)} />
        <ErrorMessage error={save.error} />
        <FieldErrorList error={save.error} labels={{ name: 'Name', description: 'Description', max_members: 'Member limit' }} />
        <div className="actions"><button type="submit" disabled={save.busy}>Save changes</button></div>
        <Notice>{save.done}</Notice>
      </form>
    </section>
  );
}
