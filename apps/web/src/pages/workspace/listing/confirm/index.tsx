import LinkFilterNotice from '@/components/LinkFilterNotice';
import { useLinkFilters } from '@/hooks/useLinkFilters';
import { useRef, useState } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Input, Modal, Popconfirm, Space, message } from 'antd';
import { formatFen, formatTons, type SubscriptionView } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import ExportExcelButton from '@/components/ExportExcel';
import { answerSubscription, listMyDeals, listSubscriptionsToMe, type SubscriptionQuery } from '@/services/listing';
import { subscriptionColumns, subscriptionDetails, subscriptionExcel } from '@/components/listing/columns';
import { rowDetails } from '@/components/RowDetails';
import { WS_PAGINATION, cleanParams } from '@/lib/pro-table';
import OppositeCompanyModal from '@/components/OppositeCompanyModal';

/**
 * The deal a confirmed subscription became. The subscription view carries no deal id, so the deal is matched by
 * listing, time of confirmation (the deal is written in the same instant), quantity and counterparty.
 */
async function dealOf(sub: SubscriptionView): Promise<number | null> {
  const page = await listMyDeals({ tradeId: sub.tradeId, pageNo: 1, pageSize: 100 });
  const deal = page.records.find(
    (d) => d.quantity === sub.quantity && d.createdAt === sub.decidedAt && (d.buyerName === sub.subscriberName || d.sellerName === sub.subscriberName),
  );
  return deal?.id ?? null;
}

/** 摘牌确认: subscriptions to my enterprise's listings, confirmed or declined one by one. */
export default function ListingConfirmPage() {
  // a 待办 opens the list filtered by the link's status
  const link = useLinkFilters(['status'] as const);
  const action = useRef<ActionType>(null);
  const last = useRef<Omit<SubscriptionQuery, 'pageNo' | 'pageSize'>>({});
  const [declining, setDeclining] = useState<SubscriptionView | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<number | null>(null);
  const [dealId, setDealId] = useState<number | null>(null);

  const answer = async (sub: SubscriptionView, act: 'confirm' | 'decline', why?: string) => {
    setBusy(sub.id);
    try {
      await answerSubscription({ id: sub.id, action: act, ...(why ? { reason: why } : {}) });
      message.success(act === 'confirm' ? '已确认成交' : '已拒绝，数量和保证金已释放');
      setDeclining(null);
      action.current?.reload();
    } catch (error) {
      message.error(errorMessage(error, '操作失败，请稍后重试'));
    } finally {
      setBusy(null);
    }
  };

  const showCounterparty = async (sub: SubscriptionView) => {
    try {
      const id = await dealOf(sub);
      if (id === null) message.warning('未找到对应的成交记录，请到“挂牌成交”查看');
      else setDealId(id);
    } catch (error) {
      message.error(errorMessage(error));
    }
  };

  const columns: ProColumns<SubscriptionView>[] = [
    ...subscriptionColumns,
    {
      title: '操作',
      valueType: 'option',
      width: 160,
      render: (_, r) =>
        r.status === 'pending' ? (
          <Space size={0}>
            <Popconfirm
              title="确认成交"
              description={`确认与 ${r.subscriberName} 成交 ${formatTons(r.quantity)}，金额 ¥${formatFen(r.amount)}？`}
              okText="确认成交"
              cancelText="取消"
              onConfirm={() => answer(r, 'confirm')}
            >
              <Button type="link" size="small" loading={busy === r.id}>
                确认成交
              </Button>
            </Popconfirm>
            <Button
              type="link"
              size="small"
              danger
              disabled={busy === r.id}
              onClick={() => {
                setReason('');
                setDeclining(r);
              }}
            >
              拒绝
            </Button>
          </Space>
        ) : r.status === 'confirmed' ? (
          <Button type="link" size="small" onClick={() => showCounterparty(r)}>
            对方信息
          </Button>
        ) : null,
    },
  ];

  return (
    <>
      <LinkFilterNotice label={link.filters.status === 'pending' ? '待本企业确认的摘牌' : null} onClear={link.clear} />
      <ProTable<SubscriptionView>
        params={link.filters}
        headerTitle="摘牌确认"
        actionRef={action}
        rowKey="id"
        columns={columns}
        tableLayout="fixed"
        expandable={rowDetails(subscriptionDetails('subscriberName'))}
        search={{ labelWidth: 'auto' }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <ExportExcelButton<SubscriptionView>
            key="export"
            fileName="摘牌确认"
            columns={subscriptionExcel}
            fetchPage={(pageNo, pageSize) => listSubscriptionsToMe({ ...last.current, pageNo, pageSize })}
          />,
        ]}
        request={async (p) => {
          last.current = cleanParams(p);
          const page = await listSubscriptionsToMe({ ...last.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <Modal
        open={declining !== null}
        title="拒绝摘牌"
        okText="确认拒绝"
        okButtonProps={{ danger: true, loading: declining !== null && busy === declining.id }}
        onCancel={() => setDeclining(null)}
        onOk={() => declining && answer(declining, 'decline', reason.trim())}
        destroyOnHidden
      >
        {declining && (
          <p>
            拒绝 {declining.subscriberName} 的摘牌 {formatTons(declining.quantity)}，数量回到挂牌，冻结的保证金 ¥{formatFen(declining.deposit)} 将释放。
          </p>
        )}
        <Input.TextArea rows={3} maxLength={200} showCount placeholder="拒绝原因（选填，将告知摘牌方）" value={reason} onChange={(e) => setReason(e.target.value)} />
      </Modal>
      <OppositeCompanyModal dealId={dealId} onClose={() => setDealId(null)} />
    </>
  );
}
