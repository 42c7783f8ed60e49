import { useState } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Notice } from '../../ui/Field';
import { InlineConfirm } from '../../ui/InlineConfirm';
import { useAction } from '../../ui/useApi';
import { PermissionForm, type PermissionDetail } from './PermissionForm';
import { PermissionTree } from './PermissionTree';
import type { PermissionSummary } from './tree';
import { usePermissionTree } from './usePermissionTree';

type Editing = { mode: 'create'; parentCode: string } | { mode: 'edit'; permission: PermissionDetail };

/** `#/roles/permissions`: the permission tree, and creating, editing and deleting permissions. */
export function PermissionsManager() {
  const tree = usePermissionTree();
  const [editing, setEditing] = useState<Editing>({ mode: 'create', parentCode: '' });
  const [confirming, setConfirming] = useState<string | null>(null);
  const action = useAction();

  const startEdit = async (node: PermissionSummary) => {
    const permission = await action.run(() => api<PermissionDetail>('GET', `permissions/${node.id}/`));
    if (permission) setEditing({ mode: 'edit', permission });
  };
  const remove = async (node: PermissionSummary) => {
    const answer = await action.run(() => api<{ message: string }>('DELETE', `permissions/${node.id}/`), `Permission ${node.code} deleted.`);
    setConfirming(null);
    if (answer) {
      if (editing.mode === 'edit' && editing.permission.id === node.id) setEditing({ mode: 'create', parentCode: '' });
      await tree.reload();
    }
  };
  const saved = async (permission: PermissionDetail) => {
    await tree.reload();
    // Show the permission where it now sits: open its parent.
    if (permission.parent) await tree.reveal(permission.parent.id);
    if (editing.mode === 'edit') setEditing({ mode: 'edit', permission });
  };

  return (
    <div className="role-layout perm-layout">
      <section className="panel" aria-labelledby="perm-tree">
        <h2 id="perm-tree">Permission tree</h2>
        <ErrorMessage error={action.error} />
        <Notice>{action.done}</Notice>
        <PermissionTree tree={tree} label="Permission tree" actions={(node) => confirming === node.id ? (
          <InlineConfirm label={`Confirm deleting ${node.code}`} question={<>Delete {node.code}? Its children become roots.</>}
            confirm="Confirm delete" busy={action.busy} onConfirm={() => void remove(node)} onCancel={() => setConfirming(null)} />
        ) : (
          <>
            <button type="button" className="secondary" aria-label={`Edit ${node.code}`} onClick={() => void startEdit(node)}>Edit</button>
            <button type="button" className="secondary" aria-label={`Add a permission under ${node.code}`}
              onClick={() => setEditing({ mode: 'create', parentCode: node.code })}>Add under</button>
            <button type="button" className="secondary" aria-label={`Delete ${node.code}`} onClick={() => { action.clear(); setConfirming(node.id); }}>
              Delete
            </button>
          </>
        )} />
      </section>
      <PermissionForm key={editing.mode === 'edit' ? `edit-${editing.permission.id}` : `new-${editing.parentCode}`}
        permission={editing.mode === 'edit' ? editing.permission : null}
        parentCode={editing.mode === 'create' ? editing.parentCode : editing.permission.parent?.code ?? ''}
        onSaved={(p) => void saved(p)} onCancel={() => setEditing({ mode: 'create', parentCode: '' })} />
    </div>
  );
}
