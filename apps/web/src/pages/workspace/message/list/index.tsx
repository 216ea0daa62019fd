import { useEffect, useRef, useState } from 'react';
import { CheckOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Grid, Popconfirm, Space } from 'antd';
import { MESSAGE_CATEGORIES, type MessageCategory, type MessageRecord } from '@coalx/shared';
import { useMessageChannel } from '@/hooks/useMessageChannel';
import { messageTime } from '@/lib/message';
import { cleanParams, enumOf, WS_PAGINATION } from '@/lib/pro-table';
import { listMessages } from '@/services/message';
import MessageCards from './components/MessageCards';
import { DueTime, MessageTitle, ReadState } from './components/parts';
import { messageQuery, scopeLabel, SCOPE_TABS, type ReadScope } from './filters';
import { useMessageActions } from './useMessageActions';
import './message-list.css';

/**
 * 我的消息 (workspace /message/list, issue 28): what the platform told me, newest first — what happened, what to do
 * and by when, with 去处理 to the page where it is done. Filters: 未读 / 全部, 类别, 时间. Read in the field too: on a
 * phone the messages are cards, never a table wider than the screen.
 */
/** antd's sm breakpoint: narrower than this is a phone. */
const PHONE_QUERY = '(min-width: 576px)';

export default function MessageListPage() {
  const screens = Grid.useBreakpoint();
  // antd measures after the first render: ask the browser directly until then, so a phone loads no table first
  const phone = screens.sm === undefined ? !window.matchMedia(PHONE_QUERY).matches : !screens.sm;
  return phone ? <MessageCards /> : <MessageTable />;
}

function MessageTable() {
  const actionRef = useRef<ActionType>(undefined);
  const [scope, setScope] = useState<ReadScope>('all');
  const [selected, setSelected] = useState<number[]>([]);
  const { unread, version } = useMessageChannel();
  const actions = useMessageActions();

  // a push (a new message, a read in another tab) or a mark here: the page shows it without a reload
  const shownVersion = useRef(version);
  useEffect(() => {
    if (shownVersion.current === version) return;
    shownVersion.current = version;
    void actionRef.current?.reload();
  }, [version]);

  const columns: ProColumns<MessageRecord>[] = [
    {
      title: '状态',
      dataIndex: 'read',
      width: 80,
      search: false,
      render: (_, r) => <ReadState read={r.read} />,
    },
    {
      title: '类别',
      dataIndex: 'category',
      valueType: 'select',
      valueEnum: enumOf(MESSAGE_CATEGORIES),
      hideInTable: true,
      fieldProps: { placeholder: '全部类别', allowClear: true },
    },
    {
      title: '时间',
      dataIndex: 'dateRange',
      valueType: 'dateRange',
      hideInTable: true,
      fieldProps: { placeholder: ['开始日期', '结束日期'] },
      search: { transform: (value: [string, string]) => ({ dateFrom: value?.[0], dateTo: value?.[1] }) },
    },
    {
      // title and content together: what happened and what to do read as one, with the width they need
      title: '消息',
      dataIndex: 'title',
      search: false,
      render: (_, r) => (
        <>
          <MessageTitle message={r} />
          <div className="coalx-msg-content">{r.content}</div>
        </>
      ),
    },
    {
      title: '截止时间',
      dataIndex: 'dueAt',
      width: 150,
      search: false,
      render: (_, r) => <DueTime message={r} />,
    },
    {
      title: '时间',
      dataIndex: 'createdAt',
      width: 140,
      search: false,
      render: (_, r) => <span className="coalx-num">{messageTime(r.createdAt)}</span>,
    },
    {
      title: '操作',
      valueType: 'option',
      width: 150,
      render: (_, r) => (
        <Space size={0}>
          {r.link && (
            <Button type="link" size="small" onClick={() => actions.follow(r)}>
              去处理
            </Button>
          )}
          {!r.read && (
            <Button type="link" size="small" loading={actions.busy === r.id} onClick={() => void actions.markOne(r)}>
              标为已读
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <ProTable<MessageRecord, { category?: MessageCategory; dateFrom?: string; dateTo?: string; scope: ReadScope }>
      rowKey="id"
      actionRef={actionRef}
      columns={columns}
      cardBordered
      tableLayout="fixed"
      search={{ labelWidth: 'auto', defaultCollapsed: false, span: 8 }}
      options={{ density: false, setting: false, reload: true }}
      pagination={WS_PAGINATION}
      params={{ scope }}
      toolbar={{
        menu: {
          type: 'tab',
          activeKey: scope,
          items: SCOPE_TABS.map((t) => ({ key: t.key, label: scopeLabel(t.key, unread?.count) })),
          onChange: (key) => {
            setSelected([]);
            setScope(key as ReadScope);
          },
        },
      }}
      toolBarRender={() => [
        <Popconfirm
          key="all"
          title="将全部未读消息标为已读？"
          okText="全部标为已读"
          cancelText="取消"
          disabled={!unread?.count}
          onConfirm={() => actions.markAll()}
        >
          <Button icon={<CheckOutlined />} disabled={!unread?.count} loading={actions.busy === 'all'}>
            全部标为已读
          </Button>
        </Popconfirm>,
      ]}
      rowSelection={{
        selectedRowKeys: selected,
        onChange: (keys) => setSelected(keys.map(Number)),
        getCheckboxProps: (r) => ({ disabled: r.read }),
      }}
      tableAlertRender={({ selectedRowKeys }) => `已选 ${selectedRowKeys.length} 条未读消息`}
      tableAlertOptionRender={({ onCleanSelected }) => (
        <Space size={12}>
          <Button
            type="link"
            size="small"
            loading={actions.busy === 'selected'}
            onClick={async () => {
              if (await actions.markSelected(selected)) onCleanSelected();
            }}
          >
            标为已读
          </Button>
          <Button type="link" size="small" onClick={onCleanSelected}>
            取消选择
          </Button>
        </Space>
      )}
      rowClassName={(r) => (r.read ? 'coalx-msg-row-read' : '')}
      locale={{ emptyText: scope === 'unread' ? '没有未读消息' : '暂无消息' }}
      request={async (p) => {
        const { scope: tab, category, dateFrom, dateTo } = cleanParams(p) as { scope?: ReadScope; category?: MessageCategory; dateFrom?: string; dateTo?: string };
        const page = await listMessages(messageQuery({ scope: tab ?? 'all', category, dateFrom, dateTo }, p.current ?? 1, p.pageSize ?? 10));
        return { data: page.records, total: page.total, success: true };
      }}
    />
  );
}
