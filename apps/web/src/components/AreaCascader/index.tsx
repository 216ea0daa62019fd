import { useEffect, useRef, useState } from 'react';
import { Cascader } from 'antd';
import { getAreaChildren, getAreaRoot } from '@/services/enterprise';
import { pathOf, toOptions, withChildren, type AreaOption } from './area-options';

export interface AreaCascaderProps {
  /** The chosen leaf's code (a district), as the form stores it. */
  value?: string;
  onChange?: (code: string | undefined, names?: string[]) => void;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
}

/**
 * Cascading area picker (spec §3): provinces from /sys/area/root, then each level loaded on demand from
 * /sys/area/children?pcode=; only a leaf (district) can be chosen. A preset value loads its path first.
 */
export default function AreaCascader({ value, onChange, placeholder = '请选择省 / 市 / 区县', disabled, id }: AreaCascaderProps) {
  const [options, setOptions] = useState<AreaOption[]>([]);
  const loadedPath = useRef<string | null>(null);

  useEffect(() => {
    let alive = true;
    void (async () => {
      try {
        let tree = toOptions(await getAreaRoot());
        // open the path of a preset value so the cascader can show its names
        const path = pathOf(value);
        for (const code of path.slice(0, -1)) tree = withChildren(tree, code, toOptions(await getAreaChildren(code)));
        loadedPath.current = value ?? null;
        if (alive) setOptions(tree);
      } catch {
        // the request layer has shown the error; the picker stays empty
      }
    })();
    return () => {
      alive = false;
    };
    // a changed value from outside after the first load is opened below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!value || value === loadedPath.current || options.length === 0) return;
    loadedPath.current = value;
    void (async () => {
      let tree = options;
      for (const code of pathOf(value).slice(0, -1)) {
        tree = withChildren(tree, code, toOptions(await getAreaChildren(code)));
      }
      setOptions(tree);
    })().catch(() => undefined);
  }, [value, options]);

  const loadData = async (selected: AreaOption[]) => {
    const target = selected[selected.length - 1];
    if (!target || target.children) return;
    const children = toOptions(await getAreaChildren(target.value));
    setOptions((current) => withChildren(current, target.value, children));
  };

  return (
    <Cascader<AreaOption>
      id={id}
      options={options}
      loadData={loadData as never}
      value={pathOf(value)}
      onChange={(codes, selected) => {
        const list = (codes ?? []) as string[];
        const last = selected?.[selected.length - 1];
        onChange?.(last && last.isLeaf ? list[list.length - 1] : undefined, selected?.map((s) => s.label));
      }}
      changeOnSelect={false}
      placeholder={placeholder}
      disabled={disabled}
      showSearch={false}
      style={{ width: '100%' }}
    />
  );
}
