import { Checkbox } from '../../ui/Field';
import { useApi } from '../../ui/useApi';
import { parsePermissions, togglePermission } from './format';

/**
 * The signed-in user's own permission codes (`me/roles/`) as checkboxes that edit the Permissions field: a token can only
 * be granted codes its user holds.
 */
export function HeldPermissions({ text, onChange }: { text: string; onChange: (text: string) => void }) {
  const { data } = useApi<{ permissions: string[] }>('me/roles/');
  if (!data?.permissions?.length) return null;
  const chosen = new Set(parsePermissions(text));
  return (
    <details className="held">
      <summary>Choose from your permissions ({data.permissions.length})</summary>
      <div className="held-list">
        {[...data.permissions].sort().map((code) => (
          <Checkbox key={code} label={code} checked={chosen.has(code)} onChange={(e) => onChange(togglePermission(text, code, e.target.checked))} />
        ))}
      </div>
    </details>
  );
}
