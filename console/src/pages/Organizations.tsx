import type { PageProps } from '.';
import { CreateOrg } from './organizations/CreateOrg';
import { OrgDetail } from './organizations/OrgDetail';
import { OrgTree, useOrgTree } from './organizations/OrgTree';
import './organizations/organizations.css';

/** `#/organizations` shows the tree and creates; `#/organizations/<slug>` is one organization. */
export function Organizations({ route }: PageProps) {
  const slug = route.parts[1];
  return (
    <div className="orgs-page">
      <h1>Organizations</h1>
      {slug ? <OrgDetail key={slug} slug={slug} /> : <OrgHome parent={route.query.get('parent')} parentName={route.query.get('parent_name')} />}
    </div>
  );
}

function OrgHome({ parent, parentName }: { parent: string | null; parentName: string | null }) {
  const state = useOrgTree();
  const preset = parent && /^\d+$/.test(parent) ? { id: Number(parent), name: parentName ?? `organization ${parent}` } : undefined;
  return (
    <div className="org-layout">
      <OrgTree state={state} />
      <CreateOrg key={parent ?? ''} state={state} presetParent={preset} />
    </div>
  );
}
