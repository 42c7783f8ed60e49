export interface OrgRef { id: number; name: string; slug: string }

/** SPEC.md "Organization", with the caller's effective role and permissions there. */
export interface Organization extends OrgRef {
  description: string;
  metadata: Record<string, unknown>;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  member_count: number;
  max_members: number;
  parent: OrgRef | null;
  children: OrgRef[];
  user_role: string | null;
  user_permissions: string[];
}

/** A member row of `organizations/<slug>/members/`. */
export interface Member {
  id: number;
  user_id: number;
  email: string | null;
  first_name: string;
  last_name: string;
  role: { code: string; name: string };
  effective_permissions: string[];
  joined_at: string;
  status: string;
}

export interface OrgRole { code: string; name: string; description: string; weight: number }

export interface Invitation {
  id: number;
  email: string;
  role: string;
  role_display: string;
  expires_at: string;
  status: string;
  created_at: string;
}
