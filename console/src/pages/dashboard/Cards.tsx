import { percentText, trendView } from './series';
import type { Stats, Trend } from './types';

/** A figure with its name; the name is a term and the figure its definition, so each card reads as a pair. */
function Stat({ label, value, extra }: { label: string; value: string | number; extra?: string | null }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd className="value">{value}</dd>
      {extra && <dd className="muted">{extra}</dd>}
    </div>
  );
}

const SUMMARY: Array<[keyof Stats['summary'], string]> = [
  ['total_users', 'Total users'], ['active_users', 'Active users'], ['total_organizations', 'Organizations'],
  ['total_applications', 'Applications'], ['active_sessions', 'Active sessions'], ['pending_deletions', 'Pending deletions'],
];

export function SummaryCards({ summary }: { summary: Stats['summary'] }) {
  return (
    <dl className="cards" aria-label="Summary">
      {SUMMARY.map(([key, label]) => <Stat key={key} label={label} value={summary[key]} />)}
    </dl>
  );
}

const TRENDS: Array<[keyof Stats['trends'], string, boolean]> = [
  ['user_growth', 'New accounts', false], ['login_success_rate', 'Sign-in success rate', true],
  ['login_second_steps', 'Second step pending', false], ['application_usage', 'Applications used', false],
  ['security_incidents', 'Security incidents', false],
];

/** The period's trends; with a comparison each also says the previous period's figure and the change. */
export function TrendCards({ trends }: { trends: Stats['trends'] }) {
  const show = (n: number, percent: boolean) => (percent ? percentText(n) : n);
  const extra = (trend: Trend, percent: boolean) => {
    const view = trendView(trend);
    return view.previous === null ? null : `${view.change} · previous period: ${show(view.previous, percent)}`;
  };
  return (
    <dl className="cards" aria-label="Trends">
      {TRENDS.map(([key, label, percent]) => (
        <Stat key={key} label={label} value={show(trendView(trends[key]).current, percent)} extra={extra(trends[key], percent)} />
      ))}
    </dl>
  );
}
