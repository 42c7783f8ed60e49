import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Field, Notice, Select, TextArea } from '../../ui/Field';
import { useAction } from '../../ui/useApi';
import { FieldErrorList } from '../applications/FieldErrorList';
import type { OrgTreeState } from './OrgTree';
import { parentChoices, rootOf, slugFrom } from './tree';
import type { Organization } from './types';

const LABELS = { name: 'Name', slug: 'Slug', description: 'Description', parent_id: 'Parent', max_members: 'Member limit' };

/** Create a root or, with a parent chosen among the organizations the tree shows, a sub-organization. */
export function CreateOrg({ state, presetParent }: { state: OrgTreeState; presetParent?: { id: number; name: string } }) {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [description, setDescription] = useState('');
  const [parent, setParent] = useState(presetParent ? String(presetParent.id) : '');
  const [maxMembers, setMaxMembers] = useState('0');
  const create = useAction();
  const choices = parentChoices(state.paged.data?.results ?? [], state.subtrees);
  if (presetParent && !choices.some((c) => c.id === presetParent.id)) choices.unshift({ id: presetParent.id, label: presetParent.name });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim(), slug, description, parent_id: parent ? Number(parent) : null, max_members: Number(maxMembers) || 0 };
    void create.run(() => api<Organization>('POST', 'organizations/', body), (org) => `Created ${org.name}.`).then((org) => {
      if (!org) return;
      setName(''); setSlug(''); setSlugEdited(false); setDescription('');
      const root = org.parent ? rootOf(org.parent.slug, state.subtrees) : undefined;
      state.refresh();
      if (org.parent && !root) void state.fetchTree(org.parent.slug);
    });
  };

  return (
    <section className="panel" aria-labelledby="org-create-title">
      <h2 id="org-create-title">New organization</h2>
      <form className="form" onSubmit={submit} noValidate>
        <Field label="Name" value={name} required maxLength={200}
          onChange={(e) => { setName(e.target.value); if (!slugEdited) setSlug(slugFrom(e.target.value)); }} />
        <Field label="Slug" value={slug} required maxLength={50} hint="Lower-case letters, digits and inner hyphens; used in URLs."
          onChange={(e) => { setSlug(e.target.value); setSlugEdited(true); }} />
        <TextArea label="Description" value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
        <Select label="Parent" value={parent} onChange={(e) => setParent(e.target.value)}>
          <option value="">None: a root organization</option>
          {choices.map((c) => <option key={c.id} value={c.id}>{c.label}</option>)}
        </Select>
        <Field label="Member limit" type="number" min={0} value={maxMembers} hint="0: no limit."
          onChange={(e) => setMaxMembers(e.target.value)} />
        <ErrorMessage error={create.error} />
        <FieldErrorList error={create.error} labels={LABELS} />
        <div className="actions"><button type="submit" disabled={create.busy}>Create organization</button></div>
        <Notice>{create.done}</Notice>
      </form>
    </section>
  );
}
