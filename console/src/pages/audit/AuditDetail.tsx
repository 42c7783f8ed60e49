import { ErrorMessage } from '../../ErrorMessage';
import { href, Link } from '../../router';
import { when } from '../../ui/Field';
import { useApi } from '../../ui/useApi';
import { prettyDetails, severityTone, type Filters } from './filters';
import type { AuditEvent } from './types';

/** `#/audit/<id>`: one event, its details as indented JSON text; the way back keeps the list's filters. */
export function AuditDetail({ id, filters }: { id: string; filters: Filters }) {
  const { data: event, error, loading } = useApi<AuditEvent>(`admin/audit-logs/${encodeURIComponent(id)}/`);
  const who = (email: string | null, userId: number | null) => email ?? (userId === null ? '—' : `#${userId}`);
  return (
    <section className="panel" aria-labelledby="audit-event" aria-busy={loading}>
      <p><Link to={href('audit', filters)}>Back to the audit log</Link></p>
      <h2 id="audit-event">Event {id}{event && <>: <span className="mono">{event.action}</span></>}</h2>
      <ErrorMessage error={error} />
      {event && (
        <>
          <dl className="audit-detail">
            <dt>When</dt><dd>{when(event.created_at)}</dd>
            <dt>Event type</dt><dd className="mono">{event.event_type}</dd>
            <dt>Action</dt><dd className="mono">{event.action}</dd>
            <dt>Severity</dt><dd><span className={severityTone(event.severity)}>{event.severity}</span></dd>
            <dt>Account</dt>
            <dd>
              {who(event.user_email, event.user)}
              {event.user !== null && <> · <Link to={href('audit', { user_id: String(event.user) })}>Events of this account</Link></>}
            </dd>
            <dt>Acted by</dt><dd>{who(event.actor_email, event.actor)}</dd>
            <dt>Application</dt><dd>{event.application_name ?? (event.application === null ? '—' : `#${event.application}`)}</dd>
            <dt>IP address</dt><dd className="mono">{event.ip_address ?? '—'}</dd>
            <dt>User agent</dt><dd>{event.user_agent ?? '—'}</dd>
            <dt>Request id</dt><dd className="mono">{event.request_id ?? '—'}</dd>
            {event.prompt_trace_id && <><dt>Prompt trace id</dt><dd className="mono">{event.prompt_trace_id}</dd></>}
          </dl>
          <h3>Details</h3>
          <pre className="details" aria-label="Details">{prettyDetails(event.details)}</pre>
        </>
      )}
    </section>
  );
}
