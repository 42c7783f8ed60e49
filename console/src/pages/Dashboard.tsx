import type { PageProps } from '.';
import { ErrorMessage } from '../ErrorMessage';
import { href, navigate } from '../router';
import { Checkbox, Select } from '../ui/Field';
import { withQuery } from '../ui/Paged';
import { useApi } from '../ui/useApi';
import { SummaryCards, TrendCards } from './dashboard/Cards';
import { COLOURS, DaysChart } from './dashboard/Charts';
import { Figures } from './dashboard/Figures';
import type { PeriodName, Stats } from './dashboard/types';
import './dashboard/dashboard.css';

const PERIODS: Array<[PeriodName, string]> = [['7d', 'Last 7 days'], ['30d', 'Last 30 days'], ['90d', 'Last 90 days']];

const periodOf = (value: string | null): PeriodName => PERIODS.find(([p]) => p === value)?.[0] ?? '7d';

/** A UTC day as the browser's locale writes dates. */
const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });

/**
 * `#/?period=30d&compare=true`: the period and the comparison live in the URL, so a reload or a shared link shows the
 * same figures.
 */
export function Dashboard({ route }: PageProps) {
  const period = periodOf(route.query.get('period'));
  const compare = route.query.get('compare') === 'true';
  const stats = useApi<Stats>(withQuery('dashboard/stats/', { period, compare: compare || undefined }));
  const choose = (next: { period?: PeriodName; compare?: boolean }) => {
    const p = next.period ?? period;
    const c = next.compare ?? compare;
    navigate(href('', { ...(p !== '7d' ? { period: p } : {}), ...(c ? { compare: 'true' } : {}) }));
  };

  const data = stats.data;
  return (
    <>
      <h1>Dashboard</h1>
      <form className="dashboard-controls" aria-label="Dashboard period" onSubmit={(e) => e.preventDefault()}>
        <Select label="Period" value={period} onChange={(e) => choose({ period: periodOf(e.target.value) })}>
          {PERIODS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
        </Select>
        <Checkbox label="Compare with the previous period" checked={compare} onChange={(e) => choose({ compare: e.target.checked })} />
      </form>
      <ErrorMessage error={stats.error} />
      {data && (
        <div aria-busy={stats.loading}>
          <p className="period-range muted">
            {day(data.period.start)} to {day(data.period.end)}
            {data.period.previous_start && data.period.previous_end
              && `, compared with ${day(data.period.previous_start)} to ${day(data.period.previous_end)}`}
            {' '}(UTC)
          </p>
          <h2>Summary</h2>
          <SummaryCards summary={data.summary} />
          <h2>Trends of the period</h2>
          <TrendCards trends={data.trends} />
          <p className="note muted">
            The success rate counts successes and failures only. A sign-in answered &ldquo;2FA required&rdquo; or
            &ldquo;2FA setup required&rdquo; waits for its second step: it is neither, and counted apart.
          </p>
        </div>
      )}
      <div className="charts">
        {data && (
          <>
            <DaysChart title="Successful sign-ins per day" what="Successful sign-ins" days={data.charts.daily_logins} colour={COLOURS.good} />
            <DaysChart title="Registrations per day" what="Accounts created" days={data.charts.user_registrations} colour={COLOURS.main} />
            <DaysChart title="Security events per day" what="Security incidents" days={data.charts.security_events} colour={COLOURS.bad} />
          </>
        )}
        <Figures />
      </div>
    </>
  );
}
