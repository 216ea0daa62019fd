import type { AreaNode } from '@coalx/shared';

/** Cascader options of spec §3 area nodes, kept pure for tests. */
export interface AreaOption {
  value: string;
  label: string;
  isLeaf: boolean;
  children?: AreaOption[];
}

export function toOptions(nodes: AreaNode[]): AreaOption[] {
  return nodes.map((n) => ({ value: n.code, label: n.title, isLeaf: n.leaf }));
}

/** The codes along the path to a leaf: '140602' → ['14', '1406', '140602'], '4419' → ['44', '4419']. */
export function pathOf(code: string | null | undefined): string[] {
  if (!code || !/^\d{2}(\d{2}){0,2}$/.test(code)) return [];
  const path: string[] = [];
  for (let i = 2; i <= code.length; i += 2) path.push(code.slice(0, i));
  return path;
}

/** Puts children under the option with `code`, anywhere in the tree; returns a new tree. */
export function withChildren(options: AreaOption[], code: string, children: AreaOption[]): AreaOption[] {
  return options.map((o) => {
    if (o.value === code) return { ...o, children, isLeaf: children.length === 0 };
    if (o.children && code.startsWith(o.value)) return { ...o, children: withChildren(o.children, code, children) };
    return o;
  });
}
