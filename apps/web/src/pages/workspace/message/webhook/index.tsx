import { useRef, useState } from 'react';
import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { ProFormCheckbox, ProFormSwitch, ProFormText, ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Alert, Badge, Button, Dropdown, Modal, Space, Tag, Tooltip, Typography, message } from 'antd';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_MAX_ATTEMPTS, WebhookUrlSchema, webhookEventTypeList, type WebhookEventType } from '@coalx/shared';
import { isActionAllowed } from '@/app/access';
import { usePageMeta } from '@/app/page-context';
import { errorMessage } from '@/app/request';
import { useSession } from '@/app/session';
import Authorized from '@/components/Authorized';
import GuardedModalForm from '@/components/GuardedModalForm';
import { zodRule } from '@/lib/zod-rule';
import {
  addWebhookEndpoint,
  deleteWebhookEndpoint,
  editWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  type WebhookEndpointForm,
  type WebhookEndpointRecord,
} from '@/services/webhook';
import DeliveriesDrawer from './components/DeliveriesDrawer';
import './webhook.css';

const EVENT_OPTIONS = webhookEventTypeList().map((e) => ({ label: e.name, value: e.type }));
const eventName = (type: string) => WEBHOOK_EVENT_TYPES[type as WebhookEventType] ?? type;
/** Tags shown in the row; the rest are counted, all of them on hover. */
const TAGS_SHOWN = 5;

/** An address that wraps after its slashes first, and inside a part only when one part is longer than the column. */
function breakableUrl(url: string) {
  const parts = url.split('/');
  return parts.map((part, i) => (
    <span key={i}>
      {part}
      {i < parts.length - 1 ? (
        <>
          /<wbr />
        </>
      ) : null}
    </span>
  ));
}

/** The secret, once: the platform keeps it to sign with, but never shows it again. */
function showSecret(title: string, secret: string) {
  Modal.success({
    title,
    width: 560,
    content: (
      <div className="coalx-webhook-secret">
        <Alert type="warning" showIcon message="请立即保存，关闭后将无法再次查看" style={{ marginBottom: 12 }} />
        <p>贵司系统收到推送后，用此密钥验证请求头中的签名，确认推送来自本平台且内容未被改动。</p>
        <Typography.Paragraph copyable={{ text: secret, tooltips: ['复制', '已复制'] }} code className="coalx-webhook-secret-text">
          {secret}
        </Typography.Paragraph>
      </div>
    ),
    okText: '我已保存',
  });
}

/**
 * 推送接口 (enterprise admin): the addresses of the enterprise's own systems (ERP, dispatch) that hear its trading
 * events, each signed with the endpoint's secret; the delivery log of each with 重新发送.
 */
export default function WebhookManagePage() {
  const action = useRef<ActionType>(undefined);
  const [editing, setEditing] = useState<WebhookEndpointRecord | 'new' | null>(null);
  const [deliveriesOf, setDeliveriesOf] = useState<WebhookEndpointRecord | null>(null);
  const { userInfo } = useSession();
  const { permission } = usePageMeta();
  const may = (act: string) => isActionAllowed(userInfo?.role?.permissions, act, permission);

  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      message.success(done);
      action.current?.reload();
    } catch (e) {
      message.error(errorMessage(e));
    }
  };

  const formOf = (e: WebhookEndpointRecord): WebhookEndpointForm => ({ url: e.url, description: e.description, eventTypes: e.eventTypes as WebhookEventType[], enabled: e.enabled });

  const confirmRotate = (e: WebhookEndpointRecord) =>
    Modal.confirm({
      title: '重新生成密钥',
      content: '生成后原密钥立即失效，贵司系统须改用新密钥验证签名，否则将无法验证之后的推送。',
      okText: '重新生成',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          const result = await rotateWebhookSecret(e.id);
          action.current?.reload();
          showSecret('新密钥已生成', result.secret);
        } catch (err) {
          message.error(errorMessage(err));
        }
      },
    });

  const confirmDelete = (e: WebhookEndpointRecord) =>
    Modal.confirm({
      title: '删除推送接口',
      content: `删除后不再向 ${e.url} 推送，该接口的推送记录一并删除。`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => run(() => deleteWebhookEndpoint(e.id), '推送接口已删除'),
    });

  const columns: ProColumns<WebhookEndpointRecord>[] = [
    {
      title: '推送地址',
      dataIndex: 'url',
      render: (_, e) => (
        <div>
          <span className="coalx-webhook-url">{breakableUrl(e.url)}</span>
          {e.description ? <div className="coalx-webhook-sub coalx-webhook-cell">{e.description}</div> : null}
        </div>
      ),
    },
    {
      title: '推送事件',
      dataIndex: 'eventTypes',
      width: 300,
      render: (_, e) => {
        const names = e.eventTypes.map(eventName);
        return (
          <Tooltip title={names.length > TAGS_SHOWN ? names.join('、') : undefined}>
            <div className="coalx-webhook-tags">
              {names.slice(0, TAGS_SHOWN).map((name) => (
                <Tag key={name} color="blue">
                  {name}
                </Tag>
              ))}
              {names.length > TAGS_SHOWN ? <Tag>等 {names.length} 个</Tag> : null}
            </div>
          </Tooltip>
        );
      },
    },
    {
      title: '状态',
      dataIndex: 'enabled',
      width: 160,
      render: (_, e) => (
        <div>
          <Badge status={e.enabled ? 'success' : 'default'} text={e.enabled ? '启用' : '停用'} />
          {e.disabledReason ? <div className="coalx-webhook-warn">{e.disabledReason}</div> : null}
          {e.enabled && e.failingSince ? <div className="coalx-webhook-warn">自 {e.failingSince.slice(5, 16)} 起推送失败</div> : null}
        </div>
      ),
    },
    {
      title: '最近失败',
      dataIndex: 'lastFailure',
      width: 180,
      render: (_, e) =>
        e.lastFailure ? (
          <div>
            <div>{e.lastFailure.at}</div>
            <div className="coalx-webhook-sub coalx-webhook-cell" title={e.lastFailure.error ?? undefined}>
              {eventName(e.lastFailure.eventType)}：{e.lastFailure.statusCode !== null ? `状态码 ${e.lastFailure.statusCode}` : (e.lastFailure.error ?? '未响应')}
            </div>
          </div>
        ) : (
          <span className="coalx-webhook-sub">无</span>
        ),
    },
    {
      title: '操作',
      valueType: 'option',
      width: 180,
      render: (_, e) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setDeliveriesOf(e)}>
            推送记录
          </Button>
          <Authorized action="edit">
            <Button type="link" size="small" onClick={() => setEditing(e)}>
              编辑
            </Button>
          </Authorized>
          {may('edit') || may('delete') ? (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                ...(may('edit') ? [{ key: 'toggle', label: e.enabled ? '停用' : '启用' }, { key: 'rotate', label: '重新生成密钥' }] : []),
                ...(may('delete') ? [{ key: 'delete', label: '删除', danger: true }] : []),
              ],
              onClick: ({ key }) => {
                if (key === 'toggle') void run(() => editWebhookEndpoint({ id: e.id, ...formOf(e), enabled: !e.enabled }), e.enabled ? '推送接口已停用' : '推送接口已启用');
                if (key === 'rotate') confirmRotate(e);
                if (key === 'delete') confirmDelete(e);
              },
            }}
          >
            <Button type="link" size="small">
              更多 <DownOutlined />
            </Button>
          </Dropdown>
          ) : null}
        </Space>
      ),
    },
  ];

  const current = editing === 'new' ? null : editing;

  return (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message="推送接口把本企业参与的成交、合同、履约、结算等事件实时推送到贵司系统（如企业管理系统、调度系统）。"
        description={`每次推送都附有签名，请用接口密钥验证。接收方未在 10 秒内返回成功状态码（200–299）即视为失败，将在 10 秒、20 秒、40 秒、80 秒后重试，共 ${WEBHOOK_MAX_ATTEMPTS} 次；连续失败超过一天的接口将自动停用并通知企业管理员。推送地址不能指向内网或本机地址。`}
      />
      <ProTable<WebhookEndpointRecord>
        rowKey="id"
        headerTitle="推送接口"
        actionRef={action}
        columns={columns}
        cardBordered
        tableLayout="fixed"
        search={false}
        pagination={false}
        options={{ density: false, setting: false, reload: true }}
        locale={{ emptyText: '尚未登记推送接口' }}
        request={async () => {
          const rows = await listWebhookEndpoints();
          return { data: rows, total: rows.length, success: true };
        }}
        toolBarRender={() => [
          <Authorized key="add" action="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              新增推送接口
            </Button>
          </Authorized>,
        ]}
      />
      {editing ? (
        <GuardedModalForm<WebhookEndpointForm>
          key={current?.id ?? 'new'}
          name="webhookEndpoint"
          title={current ? '编辑推送接口' : '新增推送接口'}
          width={640}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          initialValues={current ? formOf(current) : { enabled: true, eventTypes: [] }}
          layout="horizontal"
          labelCol={{ span: 4 }}
          modalProps={{ destroyOnHidden: true, okText: current ? '保存' : '新增', cancelText: '取消' }}
          onFinish={async (values) => {
            try {
              if (current) {
                await editWebhookEndpoint({ ...values, id: current.id });
                message.success('推送接口已保存');
              } else {
                const created = await addWebhookEndpoint(values);
                showSecret('推送接口已新增', created.secret);
              }
              setEditing(null);
              action.current?.reload();
              return true;
            } catch (e) {
              message.error(errorMessage(e, '保存失败，请稍后重试'));
              return false;
            }
          }}
        >
          <ProFormText
            name="url"
            label="推送地址"
            placeholder="贵司系统接收推送的地址，以 https:// 或 http:// 开头"
            rules={[zodRule(WebhookUrlSchema)]}
            fieldProps={{ maxLength: 2000 }}
          />
          <ProFormText name="description" label="说明" placeholder="如：财务系统订单同步（选填）" fieldProps={{ maxLength: 100 }} />
          <ProFormCheckbox.Group
            name="eventTypes"
            label="推送事件"
            options={EVENT_OPTIONS}
            fieldProps={{ className: 'coalx-webhook-events' }}
            rules={[{ required: true, type: 'array', min: 1, message: '请至少选择一个推送的事件' }]}
          />
          <ProFormSwitch name="enabled" label="启用" checkedChildren="启用" unCheckedChildren="停用" />
          {current ? null : <p className="coalx-webhook-sub">新增后将生成接口密钥，仅显示一次。</p>}
        </GuardedModalForm>
      ) : null}
      <DeliveriesDrawer endpoint={deliveriesOf} onClose={() => setDeliveriesOf(null)} onChanged={() => action.current?.reload()} />
    </>
  );
}
