import { ErrorMessage } from '../../ErrorMessage';
import { useApi } from '../../ui/useApi';
import { AdoptionChart, COLOURS, CountsChart, LoginsChart, ShareChart } from './Charts';
import { counted, methodSeries, percentText, statusSeries } from './series';
import type { AuthFigures, GdprFigures, OrganizationFigures, SecurityFigures } from './types';

/**
 * The figures that do not depend on the period: sign-ins, security, deletion requests and organizations. They join the
 * period's charts in the caller's grid.
 */
export function Figures() {
  const auth = useApi<AuthFigures>('dashboard/auth/');
  const security = useApi<SecurityFigures>('dashboard/security/');
  const gdpr = useApi<GdprFigures>('dashboard/gdpr/');
  const orgs = useApi<OrganizationFigures>('dashboard/organizations/');
  return (
    <>
      <ErrorMessage error={auth.error ?? security.error ?? gdpr.error ?? orgs.error} />
        {auth.data && <LoginsChart days={auth.data.charts.logins_per_day_7d} />}
        {auth.data && (
          <CountsChart title="Sign-in methods, last 30 days" what="Successful sign-ins" items={methodSeries(auth.data.login_by_method)}
            notes={<FailureReasons reasons={auth.data.top_login_failure_reasons} />} />
        )}
        {security.data && <Security figures={security.data} />}
        {gdpr.data && (
          <CountsChart title="Deletion requests by status" what="Deletion requests" colour={COLOURS.warn}
            items={statusSeries(gdpr.data.deletion_requests.by_status)}
            notes={(
              <ul className="figures">
                <li>{counted(gdpr.data.deletion_requests.total, 'request')} in all</li>
                <li>{counted(gdpr.data.deletion_requests.grace_period_expiring_7d, 'grace period')} ending within 7 days</li>
                <li>{counted(gdpr.data.data_exports.total_this_month, 'data export')} this month ({gdpr.data.data_exports.total_today} today)</li>
              </ul>
            )} />
        )}
        {orgs.data && <Organizations figures={orgs.data} />}
    </>
  );
}

function FailureReasons({ reasons }: { reasons: AuthFigures['top_login_failure_reasons'] }) {
  if (reasons.length === 0) return <p className="note muted">No failed sign-in in the last 30 days.</p>;
  return (
    <p className="note">
      Most frequent failures: {reasons.slice(0, 3).map((r) => `${r.reason} (${r.count})`).join(', ')}
    </p>
  );
}

function Security({ figures }: { figures: SecurityFigures }) {
  const { account_security: account, suspicious_activity: suspicious, audit_summary_24h: audit } = figures;
  return (
    <AdoptionChart rate={account['2fa_adoption_rate']} notes={(
      <ul className="figures">
        <li><strong>{percentText(account['2fa_adoption_rate'])}</strong> of accounts use two-factor authentication</li>
        <li>{counted(account.locked_accounts, 'account')} locked, {account.banned_accounts} banned</li>
        <li>{counted(suspicious.last_24h, 'failed sign-in')} in 24 hours, {suspicious.last_7d} in 7 days</li>
        <li>
          {counted(audit.total, 'audit event')} in 24 hours: {counted(audit.by_severity.warning, 'warning')},
          {' '}{audit.by_severity.critical} critical
        </li>
      </ul>
    )} />
  );
}

function Organizations({ figures }: { figures: OrganizationFigures }) {
  if (!figures.enabled) {
    return (
      <section className="chart" aria-labelledby="dashboard-orgs">
        <h2 id="dashboard-orgs">Organizations</h2>
        <p className="muted">Organizations are off on this server (SVC_ORGANIZATIONS_ENABLED).</p>
      </section>
    );
  }
  const { owner, admin, member } = figures.members.by_role;
  return (
    <ShareChart title="Organization members by role"
      summary={`${figures.members.total} memberships: ${owner} owners, ${admin} admins, ${member} members.`}
      slices={[{ name: 'Owners', value: owner }, { name: 'Admins', value: admin }, { name: 'Members', value: member }]}
      notes={(
        <>
          <ul className="figures">
            <li>{counted(figures.total_organizations, 'organization')}, {figures.active} active, {figures.with_sub_orgs} with sub-organizations</li>
            <li>{figures.members.avg_per_org} members per organization on average</li>
          </ul>
          {figures.top_organizations.length > 0 && (
            <div className="table-scroll">
              <table>
                <caption>Largest organizations</caption>
                <thead><tr><th scope="col">Name</th><th scope="col">Slug</th><th scope="col">Members</th></tr></thead>
                <tbody>
                  {figures.top_organizations.map((o) => (
                    <tr key={o.slug}><td>{o.name}</td><td className="mono">{o.slug}</td><td>{o.members}</td></tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )} />
  );
}
