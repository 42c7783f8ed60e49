import type { ReactNode } from 'react';
import { ErrorMessage } from '../../ErrorMessage';
import { Checkbox } from '../../ui/Field';
import type { PermissionSummary } from './tree';
import type { PermissionTreeModel } from './usePermissionTree';

/** Indentation per level, in rem. */
const INDENT = 1.5;

/**
 * The permission tree as a list of lines, each opened with its own button. With `selected`, each permission is a
 * checkbox (the role editor); with `actions`, each line carries buttons (the permission manager).
 */
export function PermissionTree({ tree, label, selected, onToggle, actions }: {
  tree: PermissionTreeModel;
  label: string;
  selected?: ReadonlySet<string>;
  onToggle?: (code: string, on: boolean) => void;
  actions?: (node: PermissionSummary) => ReactNode;
}) {
  return (
    <div aria-busy={tree.loading}>
      <ErrorMessage error={tree.error} />
      <ul className="perm-tree" aria-label={label}>
        {tree.rows.map((row) => {
          const indent = { paddingLeft: `${row.depth * INDENT}rem` };
          if (row.kind === 'more') {
            return (
              <li key={`more-${row.parent}`} style={indent}>
                <span className="spacer" />
                <button type="button" className="secondary" onClick={() => void tree.more(row.parent)}>
                  Show {row.remaining} more
                </button>
              </li>
            );
          }
          const { node } = row;
          const title = `${node.name} (${node.code})`;
          return (
            <li key={node.id} style={indent}>
              {row.leaf ? <span className="spacer" /> : (
                <button type="button" className="secondary toggle" aria-expanded={row.expanded}
                  aria-label={`${row.expanded ? 'Hide' : 'Show'} sub-permissions of ${node.code}`} onClick={() => tree.toggleNode(node.id)}>
                  {row.expanded ? '−' : '+'}
                </button>
              )}
              <span className="node-main">
                {selected && onToggle
                  ? <Checkbox label={title} checked={selected.has(node.code)} onChange={(e) => onToggle(node.code, e.target.checked)} />
                  : <span><strong>{node.name}</strong> <code>{node.code}</code></span>}
                {node.description && <span className="desc">{node.description}</span>}
              </span>
              {actions && <span className="node-actions">{actions(node)}</span>}
            </li>
          );
        })}
        {!tree.loading && tree.rows.length === 0 && !tree.error && <li>No permission yet.</li>}
      </ul>
    </div>
  );
}
