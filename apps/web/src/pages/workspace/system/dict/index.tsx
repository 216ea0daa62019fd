import { useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { ProCard, ProTable, type ProColumns } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Empty, Menu, Popconfirm, Space, Tag, Tooltip, Typography, message } from 'antd';
import type { DictAdminDictionary, DictAdminItem } from '@coalx/shared';
import { syncDictionaries } from '@/app/dict';
import { errorMessage } from '@/app/request';
import { addDictItem, deleteDictItem, DICT_ADMIN_QUERY_KEY, editDictItem, listDictionariesForAdmin } from '@/services/dictionary';
import DictItemForm, { type DictItemValues } from './components/DictItemForm';

/**
 * 数据字典 (workspace /system/dict, admin): every dictionary the pages read, with its items' text, order and state.
 * A value held by records cannot be deleted, only disabled. Every change raises the dictionary version, which makes
 * each browser reload its cached dictionaries (this one at once).
 */
export default function SystemDictPage() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: DICT_ADMIN_QUERY_KEY, queryFn: listDictionariesForAdmin });
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ item: DictAdminItem | null } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const dictionaries = list.data?.dictionaries ?? [];
  const dictionary: DictAdminDictionary | undefined = dictionaries.find((d) => d.code === selected) ?? dictionaries[0];

  /** After a change: the list again, and this browser's own all_dict at the new version. */
  const refresh = async () => {
    // staleTime 0: the app's default would hand back the list from before the change
    const next = await queryClient.fetchQuery({ queryKey: DICT_ADMIN_QUERY_KEY, queryFn: listDictionariesForAdmin, staleTime: 0 });
    await syncDictionaries(next.version);
  };

  const run = async (key: string, action: () => Promise<string>) => {
    setBusy(key);
    try {
      message.success(await action());
      await refresh();
      return true;
    } catch (error) {
      message.error(errorMessage(error));
      return false;
    } finally {
      setBusy(null);
    }
  };

  const submit = async (values: DictItemValues) => {
    if (!dictionary || !editing) return false;
    const text = values.text.trim();
    return run('form', () =>
      editing.item
        ? editDictItem({ dictCode: dictionary.code, value: editing.item.value, text, sort: values.sort, enabled: values.enabled })
        : addDictItem({ dictCode: dictionary.code, value: values.value.trim(), text, sort: values.sort }),
    );
  };

  const columns: ProColumns<DictAdminItem>[] = [
    { title: '排序', dataIndex: 'sort', width: 70, align: 'right' },
    { title: '字典值', dataIndex: 'value', width: 160, render: (_, r) => <Typography.Text code>{r.value}</Typography.Text> },
    { title: '显示文字', dataIndex: 'text', width: 200, ellipsis: true },
    {
      title: '状态',
      dataIndex: 'enabled',
      width: 90,
      render: (_, r) => (r.enabled ? <Badge status="success" text="启用" /> : <Badge status="default" text="停用" />),
    },
    {
      title: '使用记录',
      dataIndex: 'inUse',
      width: 110,
      align: 'right',
      render: (_, r) => (dictionary?.usedBy ? (r.inUse > 0 ? `${r.inUse.toLocaleString('zh-CN')} 条` : '未使用') : '—'),
    },
    {
      title: '操作',
      valueType: 'option',
      width: 170,
      render: (_, r) => {
        const code = dictionary!.code;
        return (
          <Space size={4}>
            <Button type="link" size="small" onClick={() => setEditing({ item: r })}>
              编辑
            </Button>
            <Popconfirm
              title={r.enabled ? `停用「${r.text}」` : `启用「${r.text}」`}
              description={r.enabled ? '停用后新业务不再可选，已有记录仍显示此文字。' : '启用后新业务可以选择此项。'}
              okText="确定"
              cancelText="取消"
              onConfirm={() => run(`toggle:${r.value}`, () => editDictItem({ dictCode: code, value: r.value, text: r.text, sort: r.sort, enabled: !r.enabled }))}
            >
              <Button type="link" size="small" loading={busy === `toggle:${r.value}`}>
                {r.enabled ? '停用' : '启用'}
              </Button>
            </Popconfirm>
            {r.inUse > 0 ? (
              <Tooltip title={`已有 ${r.inUse} 条${dictionary!.usedBy}使用，不能删除，可停用`}>
                <Button type="link" size="small" danger disabled>
                  删除
                </Button>
              </Tooltip>
            ) : (
              <Popconfirm
                title={`删除「${r.text}」`}
                description="删除后不可恢复。"
                okText="删除"
                okButtonProps={{ danger: true }}
                cancelText="取消"
                onConfirm={() => run(`delete:${r.value}`, () => deleteDictItem({ dictCode: code, value: r.value }))}
              >
                <Button type="link" size="small" danger loading={busy === `delete:${r.value}`}>
                  删除
                </Button>
              </Popconfirm>
            )}
          </Space>
        );
      },
    },
  ];

  if (list.isError) return <Alert type="error" showIcon message={errorMessage(list.error, '数据字典加载失败')} />;

  return (
    <ProCard split="vertical" bordered headerBordered className="coalx-section-card" loading={list.isLoading}>
      <ProCard title="数据字典" colSpan="260px" bodyStyle={{ padding: 0 }} extra={list.data ? <Tag>版本 {list.data.version}</Tag> : null}>
        <Menu
          mode="inline"
          style={{ borderInlineEnd: 'none' }}
          selectedKeys={dictionary ? [dictionary.code] : []}
          onClick={({ key }) => setSelected(key)}
          items={dictionaries.map((d) => ({
            key: d.code,
            label: (
              <span style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8, lineHeight: 'inherit' }}>
                <span>{d.name}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12, lineHeight: 'inherit' }}>
                  {d.items.length} 项
                </Typography.Text>
              </span>
            ),
          }))}
        />
      </ProCard>
      <ProCard
        title={
          dictionary ? (
            <Space size={8}>
              <span>{dictionary.name}</span>
              <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
                {dictionary.code}
              </Typography.Text>
            </Space>
          ) : (
            '字典项'
          )
        }
        extra={
          dictionary ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ item: null })}>
              新增字典项
            </Button>
          ) : null
        }
      >
        {dictionary ? (
          <>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
              {dictionary.usedBy
                ? `此字典的值保存在${dictionary.usedBy}中：已被使用的值不能删除，可停用（已有记录仍显示其文字，新业务不再可选）。`
                : '此字典仅用于页面筛选，没有记录保存其值。'}
              修改后各页面在下次加载时显示新文字。
            </Typography.Paragraph>
            <ProTable<DictAdminItem>
              rowKey="value"
              size="middle"
              columns={columns}
              dataSource={dictionary.items}
              search={false}
              options={false}
              pagination={false}
              toolBarRender={false}
              locale={{ emptyText: <Empty description="暂无字典项" /> }}
            />
            <DictItemForm
              key={`${dictionary.code}:${editing?.item?.value ?? 'new'}`}
              dictionary={dictionary}
              item={editing?.item ?? null}
              open={editing !== null}
              onOpenChange={(open) => !open && setEditing(null)}
              onSubmit={async (values) => {
                const saved = await submit(values);
                if (saved) setEditing(null);
                return saved;
              }}
            />
          </>
        ) : (
          <Empty description="暂无数据字典" />
        )}
      </ProCard>
    </ProCard>
  );
}
