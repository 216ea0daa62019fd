import { useSearchParams } from 'react-router';
import { useRef, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Drawer, Popconfirm, Space, Typography, message } from 'antd';
import { DRIVER_STATUS, formatTons, type DriverDetail, type DriverSummary } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { useSession } from '@/app/session';
import Authorized from '@/components/Authorized';
import { rowDetails } from '@/components/RowDetails';
import { enumOf, cleanParams, WS_PAGINATION } from '@/lib/pro-table';
import { disableDriver, getDriver, listDrivers, resubmitDriver, type DriverFilters } from '@/services/driver';
import DriverForm from '../DriverForm';
import { DriverDescriptions, DriverStatusTag } from '../DriverParts';

/**
 * The enterprise's drivers and vehicles (运输信息 → 司机车辆): register them for the trading centre's audit, correct
 * them (a change to an approved one is audited again), stop and take them up again. Only approved drivers are
 * offered when a truck is dispatched.
 */
export default function DriverManager() {
  const { userInfo } = useSession();
  // the 待办 被驳回的司机 links here with ?status=rejected: the state filter starts there
  const [search] = useSearchParams();
  const linkedStatus = search.get('status') && search.get('status')! in DRIVER_STATUS ? search.get('status')! : undefined;
  // the trading centre reads every enterprise's drivers here and audits them under 司机审核
  const isOperator = userInfo?.role?.code === 'operator';
  const actionRef = useRef<ActionType>(undefined);
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<DriverDetail | null>(null);
  const [viewing, setViewing] = useState<DriverDetail | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const reload = () => actionRef.current?.reload();
  const open = async (id: number, then: (d: DriverDetail) => void) => {
    setBusy(id);
    try {
      then(await getDriver(id));
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };
  const act = async (id: number, call: (id: number) => Promise<DriverDetail>, done: string) => {
    setBusy(id);
    try {
      await call(id);
      message.success(done);
      setViewing(null);
      reload();
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const actions = (r: DriverSummary) =>
    isOperator ? null : (
      <Authorized action="logistics-transport.edit">
        {r.status !== 'disabled' && (
          <Button type="link" size="small" loading={busy === r.id} onClick={() => void open(r.id, (d) => (setViewing(null), setEditing(d), setFormOpen(true)))}>
            编辑
          </Button>
        )}
        {r.status === 'disabled' || r.status === 'rejected' ? (
          <Popconfirm title="重新提交审核" description="提交后由交易中心审核，通过后可派车" okText="提交" cancelText="取消" onConfirm={() => act(r.id, resubmitDriver, '已重新提交，等待交易中心审核')}>
            <Button type="link" size="small">
              重新提交
            </Button>
          </Popconfirm>
        ) : null}
        {r.status !== 'disabled' && (
          <Popconfirm title="停用司机" description={`停用后「${r.name} ${r.plateNo}」不能再派车`} okText="停用" okButtonProps={{ danger: true }} cancelText="取消" onConfirm={() => act(r.id, disableDriver, '已停用')}>
            <Button type="link" size="small" danger>
              停用
            </Button>
          </Popconfirm>
        )}
      </Authorized>
    );

  const columns: ProColumns<DriverSummary>[] = [
    {
      title: '司机姓名',
      dataIndex: 'name',
      width: 90,
      fieldProps: { placeholder: '请输入司机姓名', maxLength: 20 },
      render: (_, r) => <a onClick={() => void open(r.id, setViewing)}>{r.name}</a>,
    },
    ...(isOperator ? [{ title: '所属企业', dataIndex: 'enterpriseName', width: 160, ellipsis: true, fieldProps: { placeholder: '请输入企业名称' } } as ProColumns<DriverSummary>] : []),
    { title: '身份证号码', dataIndex: 'idCardNo', width: 170, search: false, render: (_, r) => <span className="coalx-num">{r.idCardNo}</span> },
    { title: '手机号码', dataIndex: 'mobile', width: 115, search: false, hideInTable: isOperator, render: (_, r) => <span className="coalx-num">{r.mobile}</span> },
    { title: '车牌号', dataIndex: 'plateNo', width: 100, fieldProps: { placeholder: '如：晋B12345', maxLength: 10 }, render: (_, r) => <Typography.Text strong>{r.plateNo}</Typography.Text> },
    { title: '车辆类型', dataIndex: 'vehicleTypeText', width: 120, search: false },
    { title: '核定载重(吨)', dataIndex: 'ratedLoadKg', width: 100, align: 'right', search: false, render: (_, r) => <span className="coalx-num">{formatTons(r.ratedLoadKg, false)}</span> },
    {
      title: '状态',
      dataIndex: 'status',
      width: 150,
      valueType: 'select',
      valueEnum: enumOf(DRIVER_STATUS),
      fieldProps: { placeholder: '全部状态', allowClear: true },
      render: (_, r) => (
        <Space size={4} wrap={false}>
          <DriverStatusTag status={r.status} text={r.statusText} />
          {r.status === 'rejected' && r.auditNote ? (
            <Typography.Text type="danger" ellipsis={{ tooltip: r.auditNote }} style={{ maxWidth: 76 }}>
              {r.auditNote}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      title: '操作',
      valueType: 'option',
      width: isOperator ? 70 : 170,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void open(r.id, setViewing)}>
            详情
          </Button>
          {actions(r)}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<DriverSummary>
        rowKey="id"
        form={{ initialValues: linkedStatus ? { status: linkedStatus } : {} }}
        headerTitle={isOperator ? '司机车辆（全部企业）' : '本企业司机车辆'}
        actionRef={actionRef}
        columns={columns}
        cardBordered
        tableLayout="fixed"
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        expandable={rowDetails<DriverSummary>((r) => [
          { label: '手机号码', value: r.mobile },
          { label: '驾驶证号', value: r.licenceNo },
          { label: '登记时间', value: r.createdAt },
          { label: '最近修改', value: r.updatedAt },
          { label: '审核时间', value: r.auditedAt ?? '-' },
          { label: '驳回原因', value: r.auditNote || '-' },
        ])}
        locale={{ emptyText: '暂无司机，请点击「新增司机」登记' }}
        toolBarRender={() =>
          isOperator
            ? []
            : [
                <Authorized key="add" action="logistics-transport.add">
                  <Button type="primary" icon={<PlusOutlined />} onClick={() => (setEditing(null), setFormOpen(true))}>
                    新增司机
                  </Button>
                </Authorized>,
              ]
        }
        request={async (p) => {
          const filters = cleanParams(p) as DriverFilters;
          const page = await listDrivers({ ...filters, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <DriverForm
        open={formOpen}
        driver={editing}
        onOpenChange={(next) => {
          setFormOpen(next);
          if (!next) setEditing(null);
        }}
        onDone={reload}
      />
      <Drawer
        width={760}
        open={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing ? `${viewing.name}  ${viewing.plateNo}` : ''}
        extra={viewing ? <Space>{actions(viewing)}</Space> : null}
        destroyOnHidden
      >
        {viewing && <DriverDescriptions driver={viewing} showEnterprise={isOperator} />}
      </Drawer>
    </>
  );
}
