import { useRef, useState } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, DatePicker, Descriptions, Drawer, Form, Input, Modal, Radio, Space, Table, Tabs, Tag, Timeline, Typography, message } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useSearchParams } from 'react-router';
import { ELLIPSIS, ellipsis, TRADING_STATES, type DirectoryDetail, type DirectoryEntry, type SuspensionView } from '@coalx/shared';
import { useDict } from '@/app/dict';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import LinkFilterNotice from '@/components/LinkFilterNotice';
import { directoryDetail, liftTrading, listDirectory, suspendTrading } from '@/services/tradingRights';

const AUDIT_STATES: Record<string, { text: string; badge: 'processing' | 'success' | 'error' }> = {
  pending: { text: '待审核', badge: 'processing' },
  approved: { text: '已通过', badge: 'success' },
  rejected: { text: '已驳回', badge: 'error' },
};
const SUSPENSION_COLORS: Record<string, string> = { active: 'red', lifted: 'green', ended: 'default' };
/** the filters the page reads from and writes to its address (e.g. a to-do's link ?tradingState=suspended) */
const FILTERS = ['keyword', 'auditStatus', 'tradingState', 'enterpriseType'] as const;

function TradingTag({ entry }: { entry: Pick<DirectoryEntry, 'tradingState' | 'tradingStateText'> }) {
  return entry.tradingState === 'suspended' ? <Tag color="red">{entry.tradingStateText}</Tag> : <Tag color="green">正常</Tag>;
}

/** The picked wall-clock time read as Asia/Shanghai time, whatever the browser's own zone (the platform's times are Shanghai's). */
const shanghaiInstant = (picked: Dayjs) => `${picked.format('YYYY-MM-DDTHH:mm')}:00+08:00`;

/** 暂停交易: a reason and an end (a date-time, or until lifted). */
function SuspendDialog({ target, onClose, onDone }: { target: { id: number; organName: string } | null; onClose: () => void; onDone: (d: DirectoryDetail) => void }) {
  const [form] = Form.useForm<{ reason: string; mode: 'until' | 'open'; endsAt?: Dayjs }>();
  const [busy, setBusy] = useState(false);
  const mode = Form.useWatch('mode', form);
  const submit = async () => {
    if (!target) return;
    const values = await form.validateFields();
    setBusy(true);
    try {
      const detail = await suspendTrading({ id: target.id, reason: values.reason.trim(), endsAt: values.mode === 'until' && values.endsAt ? shanghaiInstant(values.endsAt) : null });
      message.success(`已暂停「${target.organName}」的交易`);
      onDone(detail);
    } catch (error) {
      message.error(errorMessage(error, '暂停交易失败，请稍后重试'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={`暂停交易：${target ? ellipsis(target.organName, 20) : ''}`}
      open={target !== null}
      onCancel={onClose}
      onOk={submit}
      okText="确认暂停"
      cancelText="取消"
      okButtonProps={{ danger: true, loading: busy }}
      destroyOnHidden
      maskClosable={false}
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        message="暂停期间该企业不能发布挂牌或竞价、摘牌、报名或出价；已签合同的付款、发运、签收、结算与开票照常进行。"
      />
      <Form form={form} layout="vertical" initialValues={{ mode: 'until', endsAt: dayjs().add(7, 'day').hour(18).minute(0).second(0) }} preserve={false}>
        <Form.Item name="reason" label="暂停原因" rules={[{ required: true, whitespace: true, message: '请填写暂停交易原因' }]}>
          <Input.TextArea rows={3} maxLength={200} showCount placeholder="例如：未按合同履约，待交易中心核查" />
        </Form.Item>
        <Form.Item name="mode" label="暂停期限">
          <Radio.Group>
            <Radio value="until">至指定时间</Radio>
            <Radio value="open">至恢复交易</Radio>
          </Radio.Group>
        </Form.Item>
        {mode !== 'open' && (
          <Form.Item
            name="endsAt"
            label="截止时间"
            rules={[
              { required: true, message: '请选择暂停截止时间' },
              { validator: async (_, value?: Dayjs) => (value && value.isBefore(dayjs()) ? Promise.reject(new Error('暂停截止时间须晚于当前时间')) : undefined) },
            ]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/** 恢复交易: lifts the suspension in force early, with a reason. */
function LiftDialog({ target, onClose, onDone }: { target: DirectoryEntry | null; onClose: () => void; onDone: (d: DirectoryDetail) => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!target) return;
    const values = await form.validateFields();
    setBusy(true);
    try {
      const detail = await liftTrading({ id: target.id, reason: values.reason.trim() });
      message.success(`已恢复「${target.organName}」的交易`);
      onDone(detail);
    } catch (error) {
      message.error(errorMessage(error, '恢复交易失败，请稍后重试'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={`恢复交易：${target ? ellipsis(target.organName, 20) : ''}`} open={target !== null} onCancel={onClose} onOk={submit} okText="确认恢复" cancelText="取消" okButtonProps={{ loading: busy }} destroyOnHidden maskClosable={false}>
      {target?.suspension && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} message={`当前${target.tradingStateText}，原因：${target.suspension.reason}`} />
      )}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="reason" label="恢复原因" rules={[{ required: true, whitespace: true, message: '请填写恢复交易原因' }]}>
          <Input.TextArea rows={3} maxLength={200} showCount placeholder="例如：已核查完毕，企业已整改" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function SuspensionHistory({ rows }: { rows: SuspensionView[] }) {
  if (!rows.length) return <Typography.Text type="secondary">暂无暂停交易记录</Typography.Text>;
  return (
    <Timeline
      items={rows.map((s) => ({
        color: s.status === 'active' ? 'red' : 'gray',
        children: (
          <div data-testid="suspension-item">
            <Space size={8} wrap>
              <Tag color={SUSPENSION_COLORS[s.status] ?? 'default'}>{s.statusText}</Tag>
              <span>
                {s.startsAt.slice(0, 16)} 至 {s.endsAt ? s.endsAt.slice(0, 16) : '恢复交易'}
              </span>
            </Space>
            <div>暂停原因：{s.reason}</div>
            <div style={{ color: 'var(--coalx-text-2)' }}>操作人：{s.createdBy || '-'}</div>
            {s.liftedAt && (
              <div>
                {s.liftedAt.slice(0, 16)} 由 {s.liftedBy || '-'} 恢复交易{s.liftReason ? `，原因：${s.liftReason}` : ''}
              </div>
            )}
          </div>
        ),
      }))}
    />
  );
}

function DetailDrawer({ id, onClose, onSuspend, onLift }: { id: number | null; onClose: () => void; onSuspend: (d: DirectoryDetail) => void; onLift: (d: DirectoryDetail) => void }) {
  const enterpriseType = useDict('enterprise_type');
  const detail = useQuery({ queryKey: ['operation', 'enterprises', id], queryFn: () => directoryDetail(id!), enabled: id !== null });
  const d = detail.data;
  return (
    <Drawer
      width={820}
      open={id !== null}
      onClose={onClose}
      destroyOnHidden
      title={d ? <span title={d.organName}>{ellipsis(d.organName, 24)}</span> : '企业详情'}
      extra={
        d ? (
          <Authorized action="edit">
            <Space>
              {d.can.suspend && (
                <Button danger onClick={() => onSuspend(d)}>
                  暂停交易
                </Button>
              )}
              {d.can.lift && (
                <Button type="primary" onClick={() => onLift(d)}>
                  恢复交易
                </Button>
              )}
            </Space>
          </Authorized>
        ) : null
      }
    >
      {detail.isError && <Alert type="error" showIcon message={errorMessage(detail.error, '企业详情加载失败')} />}
      {d && (
        <>
          <Descriptions column={2} size="small" bordered styles={{ label: { width: 120 } }}>
            <Descriptions.Item label="企业名称" span={2}>
              {d.organName}
            </Descriptions.Item>
            <Descriptions.Item label="客户编号">{d.clientId}</Descriptions.Item>
            <Descriptions.Item label="统一社会信用代码">{d.creditCode}</Descriptions.Item>
            <Descriptions.Item label="企业类型">{enterpriseType.text(d.enterpriseType) || '-'}</Descriptions.Item>
            <Descriptions.Item label="法定代表人">{d.legalPerson}</Descriptions.Item>
            <Descriptions.Item label="审核状态">
              <Badge status={AUDIT_STATES[d.auditStatus]?.badge ?? 'default'} text={AUDIT_STATES[d.auditStatus]?.text ?? d.auditStatus} />
            </Descriptions.Item>
            <Descriptions.Item label="交易状态">
              <TradingTag entry={d} />
            </Descriptions.Item>
            {d.suspension && (
              <Descriptions.Item label="暂停原因" span={2}>
                {d.suspension.reason}
              </Descriptions.Item>
            )}
            <Descriptions.Item label="联系人">{`${d.contactName} ${d.contactMobile}`}</Descriptions.Item>
            <Descriptions.Item label="所在地区">{d.areaName.replace(/\//g, ' / ') || '-'}</Descriptions.Item>
            <Descriptions.Item label="结算银行" span={2}>
              {d.bankName ? `${d.bankName} ${d.bankAccountNo}` : '-'}
            </Descriptions.Item>
          </Descriptions>
          <Tabs
            style={{ marginTop: 16 }}
            items={[
              {
                key: 'members',
                label: `成员（${d.members.length}）`,
                children: (
                  <Table
                    rowKey="id"
                    size="small"
                    pagination={false}
                    dataSource={d.members}
                    columns={[
                      { title: '用户名', dataIndex: 'username', width: 140 },
                      { title: '姓名', dataIndex: 'realname', width: 120 },
                      { title: '手机号', dataIndex: 'mobile', width: 130 },
                      { title: '角色', dataIndex: 'roleName', width: 110 },
                      { title: '状态', dataIndex: 'disabled', width: 80, render: (v: boolean) => (v ? <Tag>已停用</Tag> : <Tag color="green">正常</Tag>) },
                      { title: '创建时间', dataIndex: 'createdAt', width: 170 },
                    ]}
                  />
                ),
              },
              {
                key: 'audits',
                label: `审核记录（${d.audits.length}）`,
                children: (
                  <Table
                    rowKey={(r) => `${r.kind}-${r.at}-${r.title}`}
                    size="small"
                    pagination={false}
                    dataSource={d.audits}
                    columns={[
                      { title: '事项', dataIndex: 'title', width: 220, ellipsis: true },
                      { title: '提交时间', dataIndex: 'at', width: 170 },
                      { title: '结果', dataIndex: 'statusText', width: 90 },
                      { title: '审核时间', dataIndex: 'decidedAt', width: 170, render: (v: string | null) => v ?? '-' },
                      { title: '意见', dataIndex: 'reason', ellipsis: true, render: (v: string | null) => v || '-' },
                    ]}
                  />
                ),
              },
              { key: 'suspensions', label: `暂停交易记录（${d.suspensions.length}）`, children: <SuspensionHistory rows={d.suspensions} /> },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}

/**
 * 企业名录 (workspace /operation/enterprises, operator): every enterprise with its audit and trading state, searched
 * and filtered from the address (?tradingState=suspended), a drawer with its members, audits and suspensions, and
 * 暂停交易 / 恢复交易.
 */
export default function EnterpriseDirectoryPage() {
  const action = useRef<ActionType>(null);
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const [viewing, setViewing] = useState<number | null>(null);
  const [suspending, setSuspending] = useState<DirectoryEntry | null>(null);
  const [lifting, setLifting] = useState<DirectoryEntry | null>(null);
  const enterpriseType = useDict('enterprise_type');
  const initial = Object.fromEntries(FILTERS.map((key) => [key, searchParams.get(key) ?? undefined]));
  const endsToday = searchParams.get('endsToday') === '1' ? ('1' as const) : null;

  const changed = (d: DirectoryDetail) => {
    setSuspending(null);
    setLifting(null);
    queryClient.setQueryData(['operation', 'enterprises', d.id], d);
    void action.current?.reload();
  };

  const columns: ProColumns<DirectoryEntry>[] = [
    { title: '关键字', dataIndex: 'keyword', hideInTable: true, fieldProps: { placeholder: '企业名称、信用代码或客户编号', maxLength: 50 } },
    {
      title: '企业名称',
      dataIndex: 'organName',
      search: false,
      width: 230,
      render: (_, r) => (
        <a onClick={() => setViewing(r.id)} title={r.organName}>
          {ellipsis(r.organName, ELLIPSIS.name)}
        </a>
      ),
    },
    { title: '客户编号', dataIndex: 'clientId', search: false, width: 110 },
    { title: '统一社会信用代码', dataIndex: 'creditCode', search: false, width: 190 },
    {
      title: '企业类型',
      dataIndex: 'enterpriseType',
      width: 100,
      valueType: 'select',
      valueEnum: Object.fromEntries(enterpriseType.items.map((i) => [i.value, { text: i.text }])),
      render: (_, r) => enterpriseType.text(r.enterpriseType) || '-',
    },
    {
      title: '审核状态',
      dataIndex: 'auditStatus',
      width: 100,
      valueType: 'select',
      valueEnum: Object.fromEntries(Object.entries(AUDIT_STATES).map(([k, v]) => [k, { text: v.text }])),
      render: (_, r) => <Badge status={AUDIT_STATES[r.auditStatus]?.badge ?? 'default'} text={AUDIT_STATES[r.auditStatus]?.text ?? r.auditStatus} />,
    },
    {
      title: '交易状态',
      dataIndex: 'tradingState',
      width: 210,
      valueType: 'select',
      valueEnum: Object.fromEntries(Object.entries(TRADING_STATES).map(([k, v]) => [k, { text: v }])),
      render: (_, r) => <TradingTag entry={r} />,
    },
    { title: '成员', dataIndex: 'memberCount', search: false, width: 70, align: 'right', render: (_, r) => `${r.memberCount} 人` },
    { title: '联系人', dataIndex: 'contactName', search: false, width: 170, ellipsis: true, render: (_, r) => `${r.contactName} ${r.contactMobile}` },
    {
      title: '操作',
      valueType: 'option',
      width: 150,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(r.id)}>
            详情
          </Button>
          <Authorized action="edit">
            {r.tradingState === 'suspended' ? (
              <Button type="link" size="small" onClick={() => setLifting(r)}>
                恢复交易
              </Button>
            ) : r.auditStatus === 'approved' ? (
              <Button type="link" size="small" danger onClick={() => setSuspending(r)}>
                暂停交易
              </Button>
            ) : null}
          </Authorized>
        </Space>
      ),
    },
  ];

  return (
    <>
      <LinkFilterNotice
        label={endsToday ? '今日到期的暂停交易' : null}
        onClear={() => {
          const next = new URLSearchParams(searchParams);
          next.delete('endsToday');
          setSearchParams(next, { replace: true });
          void action.current?.reload();
        }}
      />
      <ProTable<DirectoryEntry>
        rowKey="id"
        actionRef={action}
        headerTitle="企业名录"
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        form={{ initialValues: initial }}
        scroll={{ x: 1330 }}
        cardBordered
        options={{ reload: true, density: false, setting: false }}
        pagination={{ defaultPageSize: 10, showSizeChanger: true, showTotal: (total) => `共 ${total} 家` }}
        request={async ({ current = 1, pageSize = 10, keyword, auditStatus, tradingState, enterpriseType: type }) => {
          const filters = {
            keyword: keyword || undefined,
            auditStatus: auditStatus || undefined,
            tradingState: tradingState || undefined,
            enterpriseType: type || undefined,
            // not a form field: only the to-do's link sets it, and 查看全部 drops it
            endsToday: endsToday ?? undefined,
          };
          // the address keeps the filters, so a link or a reload lands on the same list
          const next = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1])));
          if (next.toString() !== searchParams.toString()) setSearchParams(next, { replace: true });
          const page = await listDirectory({ pageNo: current, pageSize, ...filters });
          return { data: page.records, total: page.total, success: true };
        }}
        locale={{ emptyText: '没有符合条件的企业' }}
      />
      <DetailDrawer id={viewing} onClose={() => setViewing(null)} onSuspend={setSuspending} onLift={setLifting} />
      <SuspendDialog target={suspending} onClose={() => setSuspending(null)} onDone={changed} />
      <LiftDialog target={lifting} onClose={() => setLifting(null)} onDone={changed} />
    </>
  );
}
