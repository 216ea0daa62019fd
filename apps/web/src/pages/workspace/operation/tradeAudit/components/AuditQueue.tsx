import { useRef, useState, type ReactNode } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Drawer, Input, Modal, Popconfirm, Space, message } from 'antd';
import { errorMessage, type PageResult } from '@/app/request';
import Authorized from '@/components/Authorized';
import ExportExcelButton, { type ExcelColumn } from '@/components/ExportExcel';
import { WS_PAGINATION, cleanParams, enumOf } from '@/lib/pro-table';
import RecommendSwitch from './RecommendSwitch';
import { rowDetails, type RowDetail } from '@/components/RowDetails';

const AUDIT_STATUS = { submitted: '待审核', approved: '已通过', rejected: '已驳回' };

/** What the queue needs of a trade under audit. */
interface Audited {
  tradeId: string;
  status: string;
  enterpriseName: string;
  createdAt: string;
}

export interface AuditQueueProps<T extends Audited> {
  /** 挂牌 or 竞价. */
  noun: string;
  /** 挂牌企业 or 发布企业. */
  publisher: string;
  headerTitle: string;
  exportName: string;
  columns: ProColumns<T>[];
  excel: ExcelColumn<T>[];
  list: (query: { pageNo: number; pageSize: number; status?: string }) => Promise<PageResult<T>>;
  approve: (tradeId: string) => Promise<unknown>;
  reject: (tradeId: string, reason: string) => Promise<unknown>;
  /** What approval does, said in the confirmation. */
  approveNote: (t: T) => string;
  /** The drawer's body: headline and every field. */
  detail: (t: T) => ReactNode;
  drawerTitle: (t: T) => string;
  drawerWidth: number;
  /** What opens under the row after the publisher and the submission time (type, times, delivery place). */
  details: (t: T) => RowDetail[];
  viewLabel?: (t: T) => string;
  /** Links beside 详情 (the live auction room). */
  extraLinks?: (t: T) => ReactNode;
  optionWidth: number;
}

/** An operator's audit queue of listings or auctions: filter by status, view, approve, or reject with a reason. */
export default function AuditQueue<T extends Audited>(p: AuditQueueProps<T>) {
  const action = useRef<ActionType>(null);
  const last = useRef<Record<string, unknown>>({});
  const [viewing, setViewing] = useState<T | null>(null);
  const [rejecting, setRejecting] = useState<T | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<string | null>(null);

  const decide = async (t: T, approve: boolean) => {
    if (!approve && reason.trim().length < 2) {
      message.error('请填写驳回原因（至少 2 个字）');
      return;
    }
    setBusy(t.tradeId);
    try {
      if (approve) await p.approve(t.tradeId);
      else await p.reject(t.tradeId, reason.trim());
      message.success(approve ? '审核通过' : '已驳回');
      setRejecting(null);
      setViewing(null);
      action.current?.reload();
    } catch (error) {
      message.error(errorMessage(error, '操作失败，请稍后重试'));
    } finally {
      setBusy(null);
    }
  };

  const actions = (t: T) =>
    t.status === 'submitted' ? (
      <Authorized action="edit">
        <Popconfirm title="审核通过" description={p.approveNote(t)} okText="通过" cancelText="取消" onConfirm={() => decide(t, true)}>
          <Button type="link" size="small" loading={busy === t.tradeId}>
            通过
          </Button>
        </Popconfirm>
        <Button
          type="link"
          size="small"
          danger
          onClick={() => {
            setReason('');
            setRejecting(t);
          }}
        >
          驳回
        </Button>
      </Authorized>
    ) : null;

  const columns: ProColumns<T>[] = [
    { title: '审核状态', dataIndex: 'status', hideInTable: true, valueType: 'select', valueEnum: enumOf(AUDIT_STATUS) },
    ...p.columns,
    { title: '推荐', dataIndex: 'recommended', search: false, width: 80, render: (_, r) => <RecommendSwitch tradeId={r.tradeId} approved={r.status === 'approved'} /> },
    {
      title: '操作',
      valueType: 'option',
      width: p.optionWidth,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(r)}>
            {p.viewLabel?.(r) ?? '详情'}
          </Button>
          {p.extraLinks?.(r)}
          {actions(r)}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<T>
        headerTitle={p.headerTitle}
        actionRef={action}
        rowKey="tradeId"
        columns={columns}
        tableLayout="fixed"
        expandable={rowDetails<T>((t) => [{ label: p.publisher, value: t.enterpriseName }, { label: '提交时间', value: t.createdAt }, ...p.details(t)])}
        search={{ labelWidth: 'auto' }}
        form={{ initialValues: { status: 'submitted' } }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <ExportExcelButton<T> key="export" fileName={p.exportName} columns={p.excel} fetchPage={(pageNo, pageSize) => p.list({ ...last.current, pageNo, pageSize })} />,
        ]}
        request={async (params) => {
          last.current = cleanParams(params);
          const page = await p.list({ ...last.current, pageNo: params.current ?? 1, pageSize: params.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <Drawer
        width={p.drawerWidth}
        open={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing ? p.drawerTitle(viewing) : ''}
        extra={viewing && <Space>{actions(viewing)}</Space>}
        destroyOnHidden
      >
        {viewing && (
          <div className="coalx-page" style={{ padding: 0 }}>
            {p.detail(viewing)}
          </div>
        )}
      </Drawer>
      <Modal
        open={rejecting !== null}
        title={rejecting ? `驳回${p.noun} ${rejecting.tradeId}` : ''}
        okText="确认驳回"
        okButtonProps={{ danger: true, loading: rejecting !== null && busy === rejecting.tradeId }}
        onCancel={() => setRejecting(null)}
        onOk={() => rejecting && decide(rejecting, false)}
        destroyOnHidden
      >
        <p>驳回后{p.publisher}可修改并重新提交。</p>
        <Input.TextArea
          rows={4}
          maxLength={200}
          showCount
          placeholder={`请填写驳回原因（必填，将告知${p.publisher}）`}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </Modal>
    </>
  );
}
