import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Field, Notice, Select, when } from '../../ui/Field';
import { PagedTable, usePaged } from '../../ui/Paged';
import { useAction } from '../../ui/useApi';
import type { Member, OrgRole } from './types';

const nameOf = (m: Member) => `${m.first_name} ${m.last_name}`.trim() || m.email || `user ${m.user_id}`;

/** The direct members of one organization, paged and filtered; role changes, removal, and adding a user by id. */
export function Members({ slug, roles, onChange }: { slug: string; roles: OrgRole[]; onChange: () => void }) {
  const base = `organizations/${encodeURIComponent(slug)}/members/`;
  const [filters, setFilters] = useState({ search: '', role: '' });
  const paged = usePaged<Member>(base, filters);
  const action = useAction();
  const [removing, setRemoving] = useState<Member | null>(null);
  const [userId, setUserId] = useState('');
  const [addRole, setAddRole] = useState('member');
  const add = useAction();

  const changeRole = (m: Member, role: string) => {
    void action.run(() => api('PATCH', `${base}${m.user_id}/`, { role_code: role }), `${nameOf(m)} is now ${role}.`)
      .then(() => paged.reload());
  };
  const remove = (m: Member) => {
    void action.run(() => api('DELETE', `${base}${m.user_id}/`), `${nameOf(m)} was removed.`).then((answer) => {
      setRemoving(null);
      if (answer) { paged.reload(); onChange(); }
    });
  };
  const submitAdd = (event: FormEvent) => {
    event.preventDefault();
    void add.run(() => api<Member>('POST', base, { user_id: Number(userId), role_code: addRole }), (m) => `${nameOf(m)} was added.`)
      .then((m) => { if (m) { setUserId(''); paged.reload(); onChange(); } });
  };
  const grantable = roles.filter((r) => r.code !== 'owner');

  return (
    <section className="panel" aria-labelledby="org-members-title">
      <h2 id="org-members-title">Members</h2>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field label="Search members" type="search" value={filters.search} onChange={(e) => setFilters({ ...filters, search: e.target.value })} />
        <Select label="Filter by role" value={filters.role} onChange={(e) => setFilters({ ...filters, role: e.target.value })}>
          <option value="">Any</option>
          {roles.map((r) => <option key={r.code} value={r.code}>{r.name}</option>)}
        </Select>
      </form>
      <ErrorMessage error={action.error} />
      <Notice>{action.done}</Notice>
      {removing && (
        <div className="panel confirm" role="group" aria-label="Confirm removal">
          <p>Remove <strong>{nameOf(removing)}</strong> from this organization?</p>
          <div className="actions">
            <button type="button" className="danger" disabled={action.busy} onClick={() => remove(removing)}>Yes, remove</button>
            <button type="button" className="secondary" onClick={() => setRemoving(null)}>Cancel</button>
          </div>
        </div>
      )}
      <div className="members-table"><PagedTable caption="Direct members" paged={paged} rowKey={(m) => m.id} empty="No member matches." columns={[
        { header: 'Name', cell: (m) => nameOf(m) },
        { header: 'Email', cell: (m) => m.email ?? '—' },
        { header: 'Role', cell: (m) => (
          <Select label={`Role of ${nameOf(m)}`} value={m.role.code} disabled={action.busy} onChange={(e) => changeRole(m, e.target.value)}>
            {roles.map((r) => <option key={r.code} value={r.code}>{r.name}</option>)}
          </Select>
        ) },
        { header: 'Joined', cell: (m) => when(m.joined_at) },
        { header: 'Actions', cell: (m) => (
          <button type="button" className="secondary" onClick={() => setRemoving(m)} aria-label={`Remove ${nameOf(m)}`}>Remove</button>
        ) },
      ]} /></div>
      <h3>Add an existing user</h3>
      <form className="filters" onSubmit={submitAdd}>
        <Field label="User id" type="number" min={1} required value={userId} onChange={(e) => setUserId(e.target.value)} />
        <Select label="Role for the new member" value={addRole} onChange={(e) => setAddRole(e.target.value)}>
          {grantable.map((r) => <option key={r.code} value={r.code}>{r.name}</option>)}
        </Select>
        <button type="submit" disabled={add.busy || !userId}>Add member</button>
      </form>
      <ErrorMessage error={add.error} />
      <Notice>{add.done}</Notice>
    </section>
  );
}
