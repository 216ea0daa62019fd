import { useRef, useState } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Drawer, Input, Modal, Popconfirm, Space, message } from 'antd';
import { Link } from 'react-router';
import { ELLIPSIS, ellipsis, type AuctionView } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import ExportExcelButton from '@/components/ExportExcel';
import { AuctionDescriptions, AuctionHeadline } from '@/components/auction/AuctionParts';
import { approveAuction, listAuctionAudit, rejectAuction } from '@/services/auction';
import { WS_PAGINATION, cleanParams, enumOf } from '@/lib/pro-table';
import BidRecordTable from '@/components/auction/BidRecordTable';
import { auctionColumns, auctionExcel } from '@/components/auction/columns';
import RecommendSwitch from './RecommendSwitch';

const AUDIT_STATUS = { submitted: '待审核', approved: '已通过', rejected: '已驳回' };

/** 竞价审核 (operator): the auction audit queue (approve / reject with a reason) and every auction with its bids. */
export default function AuctionAudit() {
  const action = useRef<ActionType>(null);
  const last = useRef<{ status?: string }>({});
  const [viewing, setViewing] = useState<AuctionView | null>(null);
  const [rejecting, setRejecting] = useState<AuctionView | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<string | null>(null);

  const decide = async (a: AuctionView, approve: boolean) => {
    if (!approve && reason.trim().length < 2) {
      message.error('请填写驳回原因（至少 2 个字）');
      return;
    }
    setBusy(a.tradeId);
    try {
      if (approve) await approveAuction(a.tradeId);
      else await rejectAuction(a.tradeId, reason.trim());
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

  const actions = (r: AuctionView) =>
    r.status === 'submitted' ? (
      <Authorized action="edit">
        <Popconfirm title="审核通过" description={`通过后 ${r.tradeId} 即开放报名`} okText="通过" cancelText="取消" onConfirm={() => decide(r, true)}>
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

  const columns: ProColumns<AuctionView>[] = [
    { title: '审核状态', dataIndex: 'status', hideInTable: true, valueType: 'select', valueEnum: enumOf(AUDIT_STATUS) },
    ...auctionColumns.map((c) => ({ ...c, search: false as const })),
    { title: '发布企业', dataIndex: 'enterpriseName', search: false, width: 200, render: (_, r) => <span title={r.enterpriseName}>{ellipsis(r.enterpriseName, ELLIPSIS.name)}</span> },
    { title: '提交时间', dataIndex: 'createdAt', search: false, width: 170 },
    { title: '推荐', dataIndex: 'recommended', search: false, width: 90, render: (_, r) => <RecommendSwitch tradeId={r.tradeId} approved={r.status === 'approved'} /> },
    {
      title: '操作',
      valueType: 'option',
      width: 200,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(r)}>
            {r.status === 'approved' ? '监控' : '详情'}
          </Button>
          {r.status === 'approved' && r.hangState >= 1 && (
            <Link to={`/deal/bidding?tradeId=${r.tradeId}`} target="_blank">
              <Button type="link" size="small">
                竞价室
              </Button>
            </Link>
          )}
          {actions(r)}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<AuctionView>
        headerTitle="竞价审核与监控"
        actionRef={action}
        rowKey="tradeId"
        columns={columns}
        scroll={{ x: 1800 }}
        search={{ labelWidth: 'auto' }}
        form={{ initialValues: { status: 'submitted' } }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <ExportExcelButton<AuctionView> key="export" fileName="竞价审核" columns={auctionExcel} fetchPage={(pageNo, pageSize) => listAuctionAudit({ ...last.current, pageNo, pageSize })} />,
        ]}
        request={async (p) => {
          last.current = cleanParams(p);
          const page = await listAuctionAudit({ ...last.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <Drawer width={1000} open={viewing !== null} onClose={() => setViewing(null)} title={viewing ? `竞价 ${viewing.tradeId}` : ''} extra={viewing && <Space>{actions(viewing)}</Space>} destroyOnHidden>
        {viewing && (
          <div className="coalx-page" style={{ padding: 0 }}>
            <AuctionHeadline auction={viewing} />
            {viewing.status === 'approved' && <BidRecordTable tradeId={viewing.tradeId} showEnterprise />}
            <AuctionDescriptions auction={viewing} showAudit />
          </div>
        )}
      </Drawer>
      <Modal
        open={rejecting !== null}
        title={rejecting ? `驳回竞价 ${rejecting.tradeId}` : ''}
        okText="确认驳回"
        okButtonProps={{ danger: true, loading: rejecting !== null && busy === rejecting.tradeId }}
        onCancel={() => setRejecting(null)}
        onOk={() => rejecting && decide(rejecting, false)}
        destroyOnHidden
      >
        <p>驳回后发布企业可修改并重新提交。</p>
        <Input.TextArea rows={4} maxLength={200} showCount placeholder="请填写驳回原因（必填，将告知发布企业）" value={reason} onChange={(e) => setReason(e.target.value)} />
      </Modal>
    </>
  );
}
