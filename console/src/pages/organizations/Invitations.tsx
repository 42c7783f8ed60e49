import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Field, Notice, Select, when } from '../../ui/Field';
import { PagedTable, PAGE_SIZE, usePaged } from '../../ui/Paged';
import { useAction } from '../../ui/useApi';
import { FieldErrorList } from '../applications/FieldErrorList';
import type { Invitation, OrgRole } from './types';

const STATUSES = ['pending', 'accepted', 'declined', 'revoked', 'expired'];

/**
 * The organization's invitations, paged with a status filter (`organizations/invitations/` with `X-Org-Slug`), revoking
 * a pending one, and inviting by email with a role and an expiry.
 */
export function Invitations({ slug, roles }: { slug: string; roles: OrgRole[] }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [days, setDays] = useState('7');
  const [filters, setFilters] = useState({ status: '' });
  const paged = usePaged<Invitation>('organizations/invitations/', filters, PAGE_SIZE, { orgSlug: slug });
  const invite = useAction();
  const revoke = useAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { email: email.trim(), role_code: role, expires_in_days: Number(days) };
    void invite.run(() => api<Invitation>('POST', `organizations/${encodeURIComponent(slug)}/invitations/`, body),
      (inv) => `Invitation sent to ${inv.email}.`).then((inv) => {
      if (inv) { setEmail(''); paged.reload(); }
    });
  };
  const revokeOne = (inv: Invitation) => {
    void revoke.run(() => api('DELETE', `organizations/invitations/${inv.id}/`, undefined, { orgSlug: slug }),
      `Invitation to ${inv.email} revoked.`).then(paged.reload);
  };

  return (
    <section className="panel" aria-labelledby="org-invitations-title">
      <h2 id="org-invitations-title">Invitations</h2>
      <form className="filters" onSubmit={submit} noValidate>
        <Field label="Email to invite" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Select label="Role" value={role} onChange={(e) => setRole(e.target.value)}>
          {roles.filter((r) => r.code !== 'owner').map((r) => <option key={r.code} value={r.code}>{r.name}</option>)}
        </Select>
        <Field label="Expires in (days)" type="number" min={1} max={30} value={days} onChange={(e) => setDays(e.target.value)} />
        <button type="submit" disabled={invite.busy || !email.trim()}>Send invitation</button>
      </form>
      <ErrorMessage error={invite.error} />
      <FieldErrorList error={invite.error} labels={{ email: 'Email', role_code: 'Role', expires_in_days: 'Expires in' }} />
      <Notice>{invite.done}</Notice>

      <div className="filters">
        <Select label="Invitation status" value={filters.status} onChange={(e) => setFilters({ status: e.target.value })}>
          <option value="">Any</option>
          {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
        </Select>
      </div>
      <ErrorMessage error={revoke.error} />
      <Notice>{revoke.done}</Notice>
      <PagedTable caption="Invitations" paged={paged} rowKey={(inv) => inv.id} empty="No invitations."
        columns={[
          { header: 'Email', cell: (inv) => inv.email },
          { header: 'Role', cell: (inv) => inv.role_display },
          { header: 'Status', cell: (inv) => inv.status },
          { header: 'Expires', cell: (inv) => when(inv.expires_at) },
          { header: 'Actions', cell: (inv) => (inv.status === 'pending'
            ? <button type="button" className="secondary" disabled={revoke.busy} onClick={() => revokeOne(inv)}
              aria-label={`Revoke the invitation to ${inv.email}`}>Revoke</button>
            : null) },
        ]} />
    </section>
  );
}
