import { describe, expect, it } from 'vitest';
import { pathOf, toOptions, withChildren } from './area-options';

describe('area cascader options', () => {
  it('maps spec §3 area nodes to cascader options', () => {
    expect(toOptions([{ code: '14', title: '山西省', parentId: null, leaf: false }])).toEqual([{ value: '14', label: '山西省', isLeaf: false }]);
  });
  it('finds the path of a leaf code', () => {
    expect(pathOf('140602')).toEqual(['14', '1406', '140602']);
    expect(pathOf('4419')).toEqual(['44', '4419']);
    expect(pathOf('')).toEqual([]);
    expect(pathOf('abc')).toEqual([]);
    expect(pathOf(undefined)).toEqual([]);
  });
  it('puts loaded children under the right node, at any depth', () => {
    let tree = toOptions([
      { code: '14', title: '山西省', parentId: null, leaf: false },
      { code: '15', title: '内蒙古自治区', parentId: null, leaf: false },
    ]);
    tree = withChildren(tree, '14', toOptions([{ code: '1406', title: '朔州市', parentId: '14', leaf: false }]));
    tree = withChildren(tree, '1406', toOptions([{ code: '140602', title: '朔城区', parentId: '1406', leaf: true }]));
    expect(tree[0]!.children![0]!.children![0]).toEqual({ value: '140602', label: '朔城区', isLeaf: true });
    expect(tree[1]!.children).toBeUndefined();
    expect(withChildren(tree, '15', [])[1]!.isLeaf).toBe(true);
  });
});
