import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Field, Notice, Select } from '../../ui/Field';
import { withQuery, type Page } from '../../ui/Paged';
import { useAction, useApi } from '../../ui/useApi';
import type { AdminUserDetail, RoleSummary } from './types';

/** How many roles the select offers; the search box narrows them on the server. */
const ROLE_CHOICES = 100;

/** The account's roles (`users/<id>/roles/`), assigning one chosen from `roles/` and removing one. */
export function UserRoles({ user, onChanged }: { user: AdminUserDetail; onChanged: () => void }) {
  const held = useApi<{ user_id: number; roles: RoleSummary[] }>(`users/${user.id}/roles/`);
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const choices = useApi<Page<RoleSummary>>(withQuery('roles/', { search: applied, page_size: ROLE_CHOICES, ordering: 'name' }));
  const [chosen, setChosen] = useState('');
  const action = useAction();

  const heldCodes = new Set(held.data?.roles.map((r) => r.code) ?? user.roles);
  const offered = choices.data?.results.filter((r) => !heldCodes.has(r.code)) ?? [];

  const changed = () => { held.reload(); onChanged(); };
  const assign = async (e: FormEvent) => {
    e.preventDefault();
    if (!chosen) return;
    const answer = await action.run(() => api<{ message: string }>('POST', `users/${user.id}/roles/`, { role_code: chosen }),
      `Role ${chosen} assigned.`);
    if (answer) { setChosen(''); changed(); }
  };
  const remove = async (code: string) => {
    const answer = await action.run(() => api<{ message: string }>('DELETE', withQuery(`users/${user.id}/roles/`, { role_code: code })),
      `Role ${code} removed.`);
    if (answer) changed();
  };

  // Reading a user's roles needs users.manage; without it the detail's role codes are all there is to show.
  const denied = held.error instanceof ApiError && held.error.status === 403;
  return (
    <section className="panel" aria-labelledby="user-roles">
      <h2 id="user-roles">Roles</h2>
      <ErrorMessage error={held.error} />
      {held.data ? (
        <ul className="role-list" aria-label="Roles held">
          {held.data.roles.length === 0 && <li className="muted">No role.</li>}
          {held.data.roles.map((r) => (
            <li key={r.code}>
              <span><strong>{r.name}</strong> <code>{r.code}</code>{r.is_default && <span className="badge"> default</span>}</span>
              <button type="button" className="secondary" disabled={action.busy} aria-label={`Remove role ${r.code}`}
                onClick={() => void remove(r.code)}>Remove</button>
            </li>
          ))}
        </ul>
      ) : denied && <p>{user.roles.length ? user.roles.join(', ') : 'No role.'}</p>}
      <ErrorMessage error={action.error} />
      <Notice>{action.done}</Notice>
      {!denied && (
        <>
          <form className="filters" role="search" aria-label="Role search" onSubmit={(e) => { e.preventDefault(); setApplied(search.trim()); }}>
            <Field label="Find a role" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            <button type="submit" className="secondary">Search roles</button>
          </form>
          <ErrorMessage error={choices.error} />
          <form className="form" onSubmit={(e) => void assign(e)}>
            <Select label="Role to assign" value={chosen} onChange={(e) => setChosen(e.target.value)} required>
              <option value="">Choose a role…</option>
              {offered.map((r) => <option key={r.code} value={r.code}>{r.name} ({r.code})</option>)}
            </Select>
            {choices.data && choices.data.count > ROLE_CHOICES && (
              <small className="muted">The first {ROLE_CHOICES} of {choices.data.count} roles; search to narrow them.</small>
            )}
            <div className="actions"><button type="submit" disabled={action.busy || !chosen}>Assign role</button></div>
          </form>
        </>
      )}
    </section>
  );
}
