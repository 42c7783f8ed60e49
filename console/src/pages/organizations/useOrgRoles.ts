import { useApi } from '../../ui/useApi';
import type { OrgRole } from './types';

/** The organization roles, heaviest first (owner, admin, member). */
export function useOrgRoles(): OrgRole[] {
  const { data } = useApi<OrgRole[]>('organizations/roles/');
  return [...(data ?? [])].sort((a, b) => b.weight - a.weight);
}
