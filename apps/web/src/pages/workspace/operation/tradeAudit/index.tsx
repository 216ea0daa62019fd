import { useRef, useState } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Drawer, Input, Modal, Popconfirm, Space, Tabs, message } from 'antd';
import { ELLIPSIS, ellipsis, type ListingView } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import ExportExcelButton from '@/components/ExportExcel';
import { ListingDescriptions, ListingHeadline } from '@/components/listing/ListingDetail';
import { approveListing, listAuditQueue, rejectListing } from '@/services/listing';
import { listingColumns, listingExcel } from '@/components/listing/columns';
import { WS_PAGINATION, cleanParams, enumOf } from '@/lib/pro-table';
import AuctionAudit from './AuctionAudit';
import RecommendSwitch from './RecommendSwitch';

const AUDIT_STATUS = { submitted: '待审核', approved: '已通过', rejected: '已驳回' };

/** 交易审核 (operator): listings and auctions, one tab each. */
export default function TradeAuditPage() {
  return (
    <Tabs
      destroyOnHidden
      items={[
        { key: 'listing', label: '挂牌审核', children: <ListingAudit /> },
        { key: 'auction', label: '竞价审核与监控', children: <AuctionAudit /> },
      ]}
    />
  );
}

/** The listing audit queue; approve, or reject with a reason. */
function ListingAudit() {
  const action = useRef<ActionType>(null);
  const last = useRef<{ status?: string }>({});
  const [viewing, setViewing] = useState<ListingView | null>(null);
  const [rejecting, setRejecting] = useState<ListingView | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<string | null>(null);

  const decide = async (l: ListingView, approve: boolean) => {
    if (!approve && reason.trim().length < 2) {
      message.error('请填写驳回原因（至少 2 个字）');
      return;
    }
    setBusy(l.tradeId);
    try {
      if (approve) await approveListing(l.tradeId);
      else await rejectListing(l.tradeId, reason.trim());
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

  const actions = (r: ListingView) =>
    r.status === 'submitted' ? (
      <Authorized action="edit">
        <Popconfirm title="审核通过" description={`通过后 ${r.tradeId} 将在挂牌开始时间自动上架`} okText="通过" cancelText="取消" onConfirm={() => decide(r, true)}>
          <Button type="link" size="small" loading={busy === r.tradeId}>
            通过
          </Button>
        </Popconfirm>
        <Button
          type="link"
          size="small"
          danger
          onClick={() => {
            setReason('');
            setRejecting(r);
          }}
        >
          驳回
        </Button>
      </Authorized>
    ) : null;

  const columns: ProColumns<ListingView>[] = [
    { title: '审核状态', dataIndex: 'status', hideInTable: true, valueType: 'select', valueEnum: enumOf(AUDIT_STATUS) },
    ...listingColumns.map((c) => (c.dataIndex === 'status' || c.dataIndex === 'tradeId' || c.dataIndex === 'tradeType' || c.dataIndex === 'hangState' ? { ...c, search: false as const } : c)),
    { title: '挂牌企业', dataIndex: 'enterpriseName', search: false, width: 200, render: (_, r) => <span title={r.enterpriseName}>{ellipsis(r.enterpriseName, ELLIPSIS.name)}</span> },
    { title: '提交时间', dataIndex: 'createdAt', search: false, width: 170 },
    { title: '推荐', dataIndex: 'recommended', search: false, width: 90, render: (_, r) => <RecommendSwitch tradeId={r.tradeId} approved={r.status === 'approved'} /> },
    {
      title: '操作',
      valueType: 'option',
      width: 170,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(r)}>
            详情
          </Button>
          {actions(r)}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<ListingView>
        headerTitle="挂牌审核"
        actionRef={action}
        rowKey="tradeId"
        columns={columns}
        scroll={{ x: 1600 }}
        search={{ labelWidth: 'auto' }}
        form={{ initialValues: { status: 'submitted' } }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <ExportExcelButton<ListingView>
            key="export"
            fileName="挂牌审核"
            columns={listingExcel}
            fetchPage={(pageNo, pageSize) => listAuditQueue({ ...last.current, pageNo, pageSize })}
          />,
        ]}
        request={async (p) => {
          last.current = cleanParams(p);
          const page = await listAuditQueue({ ...last.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <Drawer
        width={960}
        open={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing ? `挂牌审核 ${viewing.tradeId}` : ''}
        extra={viewing && <Space>{actions(viewing)}</Space>}
        destroyOnHidden
      >
        {viewing && (
          <div className="coalx-page" style={{ padding: 0 }}>
            <ListingHeadline listing={viewing} />
            <ListingDescriptions listing={viewing} showAudit />
          </div>
        )}
      </Drawer>
      <Modal
        open={rejecting !== null}
        title={rejecting ? `驳回挂牌 ${rejecting.tradeId}` : ''}
        okText="确认驳回"
        okButtonProps={{ danger: true, loading: rejecting !== null && busy === rejecting.tradeId }}
        onCancel={() => setRejecting(null)}
        onOk={() => rejecting && decide(rejecting, false)}
        destroyOnHidden
      >
        <p>驳回后挂牌企业可修改并重新提交。</p>
        <Input.TextArea rows={4} maxLength={200} showCount placeholder="请填写驳回原因（必填，将告知挂牌企业）" value={reason} onChange={(e) => setReason(e.target.value)} />
      </Modal>
    </>
  );
}
