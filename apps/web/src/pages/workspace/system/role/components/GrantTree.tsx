import { useMemo } from 'react';
import { Checkbox, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { ACTIONS, type ActionKey, type RoleGrant, type RoleMenuNode } from '@coalx/shared';

/** The role's grants while editing: ticked menu items and, per item, its actions. */
export interface GrantValue {
  checked: string[];
  actions: Record<string, ActionKey[]>;
}

interface Props {
  tree: RoleMenuNode[];
  value: GrantValue;
  onChange: (value: GrantValue) => void;
}

function walk(nodes: RoleMenuNode[], visit: (node: RoleMenuNode) => void) {
  for (const node of nodes) {
    visit(node);
    walk(node.children ?? [], visit);
  }
}

/**
 * The saved grants as the tree's ticks. Only pages without sub-pages are ticked: antd derives a folder's tick from
 * its pages, and ticking a folder saved for one page (the server adds it) would tick all its pages.
 */
export function grantsToValue(tree: RoleMenuNode[], grants: { permissionId: string; actions: string[] }[]): GrantValue {
  const held = new Map(grants.map((g) => [g.permissionId, g.actions as ActionKey[]]));
  const checked: string[] = [];
  const actions: Record<string, ActionKey[]> = {};
  walk(tree, (node) => {
    const a = held.get(node.id);
    actions[node.id] = a ? node.actions.filter((x) => a.includes(x)) : node.actions;
    if (a && !node.children?.length) checked.push(node.id);
  });
  return { checked, actions };
}

/** Every item of the tree, all actions: the starting point of a new role. */
export function fullValue(tree: RoleMenuNode[]): GrantValue {
  const checked: string[] = [];
  const actions: Record<string, ActionKey[]> = {};
  walk(tree, (node) => {
    checked.push(node.id);
    actions[node.id] = node.actions;
  });
  return { checked, actions };
}

/** What the server is sent: ticked items with their actions (folders of ticked pages are added by the server). */
export function valueToGrants(value: GrantValue): RoleGrant[] {
  return value.checked.map((id) => ({ permissionId: id, actions: value.actions[id] ?? [] }));
}

/** Menu items × actions as a tree with check boxes (issue 17 item 2). */
export default function GrantTree({ tree, value, onChange }: Props) {
  const checkedSet = useMemo(() => new Set(value.checked), [value.checked]);

  const treeData = useMemo(() => {
    const toData = (nodes: RoleMenuNode[]): DataNode[] =>
      nodes.map((node) => ({
        key: node.id,
        title: (
          <span className="grant-row">
            <span className="grant-title">{node.title}</span>
            {/* the action boxes must not tick the menu item itself */}
            <span onClick={(e) => e.stopPropagation()}>
              <Checkbox.Group
                value={value.actions[node.id] ?? []}
                disabled={!checkedSet.has(node.id)}
                options={node.actions.map((a) => ({ label: ACTIONS[a], value: a }))}
                onChange={(next) => onChange({ ...value, actions: { ...value.actions, [node.id]: next as ActionKey[] } })}
              />
            </span>
          </span>
        ),
        children: node.children ? toData(node.children) : undefined,
      }));
    return toData(tree);
  }, [tree, value, checkedSet, onChange]);

  if (tree.length === 0) return <Typography.Text type="secondary">请先选择基础角色</Typography.Text>;
  return (
    <Tree
      checkable
      selectable={false}
      defaultExpandAll
      treeData={treeData}
      checkedKeys={value.checked}
      onCheck={(keys) => {
        const checked = (Array.isArray(keys) ? keys : keys.checked).map(String);
        const actions = { ...value.actions };
        // an item ticked again starts with every action it may hold
        walk(tree, (node) => {
          if (checked.includes(node.id) && !checkedSet.has(node.id) && (actions[node.id]?.length ?? 0) === 0) actions[node.id] = node.actions;
        });
        onChange({ checked, actions });
      }}
    />
  );
}
