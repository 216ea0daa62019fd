import { useRef, useState } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Badge, Button, Descriptions, Drawer, Popconfirm, Select, Table, message } from 'antd';
import { WEBHOOK_DELIVERY_STATES, type WebhookAttempt, type WebhookDeliveryState } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import { WS_PAGINATION } from '@/lib/pro-table';
import { listWebhookDeliveries, resendWebhookDelivery, type WebhookDeliveryRecord, type WebhookEndpointRecord } from '@/services/webhook';

interface Props {
  endpoint: WebhookEndpointRecord | null;
  onClose: () => void;
  /** the endpoint's last failure may have changed */
  onChanged: () => void;
}

const STATE_BADGE: Record<WebhookDeliveryState, 'processing' | 'success' | 'error'> = { pending: 'processing', succeeded: 'success', failed: 'error' };
const STATE_OPTIONS = [{ label: '全部状态', value: '' }, ...Object.entries(WEBHOOK_DELIVERY_STATES).map(([value, label]) => ({ label, value }))];

/** What came back: the status code, or why nothing did. */
const answerOf = (statusCode: number | null, error: string | null) => (statusCode !== null ? String(statusCode) : (error ?? '-'));

function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** The deliveries of one endpoint, newest first: each event, its state, the answers of its attempts, 重新发送. */
export default function DeliveriesDrawer({ endpoint, onClose, onChanged }: Props) {
  const action = useRef<ActionType>(undefined);
  const [state, setState] = useState('');

  const resend = async (d: WebhookDeliveryRecord) => {
    try {
      await resendWebhookDelivery(d.id);
      message.success('已加入发送队列，稍后刷新查看结果');
      action.current?.reload();
      onChanged();
    } catch (e) {
      message.error(errorMessage(e));
    }
  };

  const columns: ProColumns<WebhookDeliveryRecord>[] = [
    { title: '时间', dataIndex: 'createdAt', width: 170 },
    { title: '事件', dataIndex: 'eventName', ellipsis: true },
    {
      title: '状态',
      dataIndex: 'state',
      width: 200,
      render: (_, d) => (
        <div>
          <Badge status={STATE_BADGE[d.state]} text={d.stateText} />
          {d.state === 'pending' && d.attempts > 0 && d.nextAttemptAt ? <div className="coalx-webhook-sub">下次尝试 {d.nextAttemptAt.slice(11)}</div> : null}
          {d.state === 'succeeded' && d.deliveredAt ? <div className="coalx-webhook-sub">送达 {d.deliveredAt.slice(5)}</div> : null}
        </div>
      ),
    },
    {
      title: 'HTTP 状态码',
      dataIndex: 'lastStatusCode',
      width: 160,
      render: (_, d) => (
        <span className="coalx-webhook-cell" title={d.lastError ?? undefined}>
          {d.attempts === 0 && d.lastStatusCode === null && !d.lastError ? '-' : answerOf(d.lastStatusCode, d.lastError)}
        </span>
      ),
    },
    { title: '尝试次数', dataIndex: 'attempts', width: 90, align: 'right' },
    {
      title: '操作',
      valueType: 'option',
      width: 100,
      render: (_, d) => (
        <Authorized action="edit">
          <Popconfirm
            title="重新发送"
            description="将以相同的消息编号再次推送，并重新计算尝试次数。"
            okText="重新发送"
            cancelText="取消"
            onConfirm={() => resend(d)}
          >
            <Button type="link" size="small">
              重新发送
            </Button>
          </Popconfirm>
        </Authorized>
      ),
    },
  ];

  const attemptColumns = [
    { title: '尝试时间', dataIndex: 'at', width: 170 },
    { title: 'HTTP 状态码', key: 'answer', render: (_: unknown, a: WebhookAttempt) => answerOf(a.statusCode, a.error) },
    { title: '耗时', dataIndex: 'durationMs', width: 100, align: 'right' as const, render: (ms: number) => `${ms} 毫秒` },
  ];

  return (
    <Drawer title={endpoint ? `推送记录：${endpoint.url}` : ''} open={endpoint !== null} width={1000} onClose={onClose} destroyOnHidden>
      {endpoint ? (
        <ProTable<WebhookDeliveryRecord>
          rowKey="id"
          actionRef={action}
          columns={columns}
          tableLayout="fixed"
          search={false}
          params={{ state }}
          pagination={WS_PAGINATION}
          options={{ density: false, setting: false, reload: true }}
          toolBarRender={() => [<Select key="state" value={state} options={STATE_OPTIONS} onChange={setState} style={{ width: 120 }} />]}
          locale={{ emptyText: '暂无推送记录' }}
          expandable={{
            columnWidth: 40,
            expandedRowRender: (d) => (
              <div>
                <Descriptions size="small" column={1} items={[{ key: 'id', label: '消息编号（各次尝试相同）', children: d.messageId }]} />
                <Table<WebhookAttempt>
                  rowKey="id"
                  size="small"
                  columns={attemptColumns}
                  dataSource={d.attemptLog}
                  pagination={false}
                  locale={{ emptyText: '尚未尝试发送' }}
                  style={{ margin: '8px 0' }}
                />
                <div className="coalx-webhook-sub">推送内容</div>
                <pre className="coalx-webhook-body">{prettyBody(d.body)}</pre>
              </div>
            ),
          }}
          request={async (p) => {
            const page = await listWebhookDeliveries({
              endpointId: endpoint.id,
              pageNo: p.current ?? 1,
              pageSize: p.pageSize ?? 10,
              state: (state || undefined) as WebhookDeliveryState | undefined,
            });
            return { data: page.records, total: page.total, success: true };
          }}
        />
      ) : null}
    </Drawer>
  );
}
