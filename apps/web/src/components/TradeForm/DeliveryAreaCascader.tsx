import { useEffect, useState } from 'react';
import { Cascader } from 'antd';
import { requestResult } from '@/app/request';

/** A cascading area node (spec §3): code, title, parentId, leaf. */
interface AreaNode {
  code: string;
  title: string;
  parentId: string | null;
  leaf: boolean;
}

interface Option {
  value: string;
  label: string;
  code: string;
  isLeaf: boolean;
  children?: Option[];
}

const toOption = (n: AreaNode): Option => ({ value: n.title, label: n.title, code: n.code, isLeaf: n.leaf });

/**
 * Province / city / district picker over GET /sys/area/root and /sys/area/children?pcode= (code 0, result list),
 * loading each level on demand. The listing stores names, so the values are the nodes' titles.
 */
export default function AreaCascader({
  value,
  onChange,
  placeholder = '请选择省 / 市 / 区县',
}: {
  value?: string[];
  onChange?: (value: string[]) => void;
  placeholder?: string;
}) {
  const [options, setOptions] = useState<Option[]>([]);

  useEffect(() => {
    let alive = true;
    requestResult<AreaNode[]>('/sys/area/root')
      .then((nodes) => alive && setOptions(nodes.map(toOption)))
      .catch(() => alive && setOptions([]));
    return () => {
      alive = false;
    };
  }, []);

  const loadData = async (selected: Option[]) => {
    const target = selected[selected.length - 1];
    if (!target) return;
    try {
      const nodes = await requestResult<AreaNode[]>('/sys/area/children', { params: { pcode: target.code } });
      // the third level (district) is the last one a delivery place needs
      target.children = nodes.map((n) => ({ ...toOption(n), isLeaf: n.leaf || selected.length >= 2 }));
      if (target.children.length === 0) target.isLeaf = true;
    } catch {
      target.children = [];
      target.isLeaf = true;
    }
    setOptions((current) => [...current]);
  };

  return (
    <Cascader<Option>
      options={options}
      value={value}
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      onChange={(v: any) => onChange?.((v ?? []) as string[])}
      loadData={loadData}
      changeOnSelect
      placeholder={placeholder}
      displayRender={(labels) => labels.join(' / ')}
      style={{ width: '100%' }}
    />
  );
}
