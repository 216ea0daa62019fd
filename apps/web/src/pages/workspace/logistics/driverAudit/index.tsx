import { useRef, useState } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Drawer, Input, Modal, Popconfirm, Space, Typography, message } from 'antd';
import { ELLIPSIS, ellipsis, formatTons, type DriverDetail, type DriverSummary } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import { rowDetails } from '@/components/RowDetails';
import { DriverDescriptions, DriverStatusTag } from '@/components/driver/DriverParts';
import { cleanParams, WS_PAGINATION } from '@/lib/pro-table';
import { approveDriver, getDriver, listDrivers, rejectDriver, type DriverFilters } from '@/services/driver';

const STATUS_TABS = [
  { key: 'pending', label: '待审核' },
  { key: 'approved', label: '已通过' },
  { key: 'rejected', label: '已驳回' },
  { key: 'all', label: '全部' },
];

/**
 * 司机审核 (the trading centre): the drivers enterprises registered, pending first; the detail shows the ID card,
 * driving licence and vehicle licence photos to compare with what was typed; 通过 lets the driver be dispatched,
 * 驳回 sends the reason back to the enterprise.
 */
export default function DriverAuditPage() {
  const actionRef = useRef<ActionType>(undefined);
  const [status, setStatus] = useState('pending');
  const [viewing, setViewing] = useState<DriverDetail | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [rejecting, setRejecting] = useState<DriverSummary | null>(null);
  const [reason, setReason] = useState('');
  const [rejectBusy, setRejectBusy] = useState(false);

  const done = (text: string) => {
    message.success(text);
    setViewing(null);
    actionRef.current?.reload();
  };
  const view = async (id: number) => {
    setBusy(id);
    try {
      setViewing(await getDriver(id));
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };
  const approve = async (r: DriverSummary) => {
    setBusy(r.id);
    try {
      await approveDriver(r.id);
      done(`已通过「${r.name} ${r.plateNo}」，该司机可以派车`);
    } catch (error) {
      message.error(errorMessage(error));
      actionRef.current?.reload();
    } finally {
      setBusy(null);
    }
  };
  const reject = async () => {
    if (!rejecting) return;
    const text = reason.trim();
    if (text.length < 2) {
      message.error('请填写驳回原因（至少 2 个字）');
      return;
    }
    setRejectBusy(true);
    try {
      await rejectDriver(rejecting.id, { reason: text });
      setRejecting(null);
      done(`已驳回「${rejecting.name} ${rejecting.plateNo}」，企业修改后可重新提交`);
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setRejectBusy(false);
    }
  };

  const decisionButtons = (r: DriverSummary, size: 'small' | 'middle' = 'small') =>
    r.status === 'pending' ? (
      <Authorized action="logistics-driverAudit.edit">
        <Popconfirm title="审核通过" description={`通过后「${r.name} ${r.plateNo}」即可派车`} okText="通过" cancelText="取消" onConfirm={() => approve(r)}>
          <Button type={size === 'middle' ? 'primary' : 'link'} size={size} loading={busy === r.id}>
            通过
          </Button>
        </Popconfirm>
        <Button type="link" size={size} danger onClick={() => (setReason(''), setRejecting(r))}>
          驳回
        </Button>
      </Authorized>
    ) : null;

  const columns: ProColumns<DriverSummary>[] = [
    { title: '司机姓名', dataIndex: 'name', width: 100, fieldProps: { placeholder: '请输入司机姓名', maxLength: 20 }, render: (_, r) => <a onClick={() => void view(r.id)}>{r.name}</a> },
    {
      title: '所属企业',
      dataIndex: 'enterpriseName',
      width: 170,
      fieldProps: { placeholder: '请输入企业名称', maxLength: 60 },
      render: (_, r) => <span title={r.enterpriseName}>{ellipsis(r.enterpriseName, ELLIPSIS.name)}</span>,
    },
    { title: '车牌号', dataIndex: 'plateNo', width: 110, fieldProps: { placeholder: '如：晋B12345', maxLength: 10 }, render: (_, r) => <Typography.Text strong>{r.plateNo}</Typography.Text> },
    { title: '身份证号码', dataIndex: 'idCardNo', width: 175, search: false, render: (_, r) => <span className="coalx-num">{r.idCardNo}</span> },
    { title: '核定载重(吨)', dataIndex: 'ratedLoadKg', width: 105, align: 'right', search: false, render: (_, r) => <span className="coalx-num">{formatTons(r.ratedLoadKg, false)}</span> },
    { title: '状态', dataIndex: 'status', width: 80, search: false, render: (_, r) => <DriverStatusTag status={r.status} text={r.statusText} /> },
    { title: '提交时间', dataIndex: 'updatedAt', width: 155, search: false, render: (_, r) => <span className="coalx-num">{r.updatedAt}</span> },
    {
      title: '操作',
      valueType: 'option',
      width: 150,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" loading={busy === r.id && viewing === null} onClick={() => void view(r.id)}>
            详情
          </Button>
          {decisionButtons(r)}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<DriverSummary>
        rowKey="id"
        headerTitle="司机审核"
        actionRef={actionRef}
        columns={columns}
        cardBordered
        tableLayout="fixed"
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        params={{ status }}
        toolbar={{ menu: { type: 'tab', activeKey: status, items: STATUS_TABS, onChange: (key) => setStatus(String(key)) } }}
        expandable={rowDetails<DriverSummary>((r) => [
          { label: '车辆类型', value: r.vehicleTypeText },
          { label: '手机号码', value: r.mobile },
          { label: '驾驶证号', value: r.licenceNo },
          { label: '登记时间', value: r.createdAt },
          { label: '审核时间', value: r.auditedAt ?? '-' },
          { label: '驳回原因', value: r.auditNote || '-' },
        ])}
        locale={{ emptyText: status === 'pending' ? '没有待审核的司机' : '暂无数据' }}
        request={async (p) => {
          const { status: tab, ...filters } = cleanParams(p) as Omit<DriverFilters, 'status'> & { status?: string };
          const page = await listDrivers({ ...filters, status: tab === 'all' ? undefined : (tab as DriverFilters['status']), pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <Drawer
        width={780}
        open={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing ? `司机审核：${viewing.name}  ${viewing.plateNo}` : ''}
        extra={viewing ? <Space>{decisionButtons(viewing, 'middle')}</Space> : null}
        destroyOnHidden
      >
        {viewing && <DriverDescriptions driver={viewing} showEnterprise />}
      </Drawer>
      <Modal
        title={rejecting ? `驳回：${rejecting.name} ${rejecting.plateNo}` : ''}
        open={rejecting !== null}
        okText="确认驳回"
        okButtonProps={{ danger: true, loading: rejectBusy }}
        cancelText="取消"
        onCancel={() => setRejecting(null)}
        onOk={() => void reject()}
        destroyOnHidden
      >
        <Input.TextArea
          rows={4}
          maxLength={200}
          showCount
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder="请写明需要企业修改的内容，例如：行驶证照片不清晰，请重新上传"
        />
      </Modal>
    </>
  );
}
