import { ApiError } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';

/** A refusal of the organization routes: when the feature is off, say so in words besides the code. */
export function OrgError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <>
      <ErrorMessage error={error} />
      {error instanceof ApiError && error.code === 'FEATURE_DISABLED' && (
        <p className="panel">Organizations are switched off on this server. An administrator turns them on with
          {' '}<code>SVC_ORGANIZATIONS_ENABLED=true</code> and a restart.</p>
      )}
    </>
  );
}
