import LinkFilterNotice from '@/components/LinkFilterNotice';
import { useLinkFilters } from '@/hooks/useLinkFilters';
import { useRef } from 'react';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Space } from 'antd';
import { Link } from 'react-router';
import type { SubscriptionView } from '@coalx/shared';
import ExportExcelButton from '@/components/ExportExcel';
import { listMySubscriptions, type SubscriptionQuery } from '@/services/listing';
import { subscriptionColumns, subscriptionDetails, subscriptionExcel } from '@/components/listing/columns';
import { rowDetails } from '@/components/RowDetails';
import { WS_PAGINATION, cleanParams } from '@/lib/pro-table';

/** 我的摘牌: my enterprise's subscriptions to other enterprises' listings. */
export default function ListingSubscribePage() {
  // a 待办 opens the list filtered by the link's status
  const link = useLinkFilters(['status'] as const);
  const last = useRef<Omit<SubscriptionQuery, 'pageNo' | 'pageSize'>>({});
  const columns: ProColumns<SubscriptionView>[] = [
    ...subscriptionColumns,
    {
      title: '操作',
      valueType: 'option',
      width: 150,
      render: (_, r) => (
        <Space size={0}>
          <Link to={`/listingSalesDetails?tradeId=${r.tradeId}`}>
            <Button type="link" size="small">查看挂牌</Button>
          </Link>
          {r.status === 'confirmed' && (
            <Link to={`/listingTrade/deal?tradeId=${r.tradeId}`}>
              <Button type="link" size="small">成交</Button>
            </Link>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
    <LinkFilterNotice label={link.filters.status === 'pending' ? '等待对方确认的摘牌' : null} onClear={link.clear} />
    <ProTable<SubscriptionView>
        params={link.filters}
      headerTitle="我的摘牌"
      rowKey="id"
      columns={columns}
      tableLayout="fixed"
      expandable={rowDetails(subscriptionDetails('publisherName'))}
      search={{ labelWidth: 'auto' }}
      pagination={WS_PAGINATION}
      options={{ density: false, setting: false, reload: true }}
      toolBarRender={() => [
        <ExportExcelButton<SubscriptionView>
          key="export"
          fileName="我的摘牌"
          columns={subscriptionExcel}
          fetchPage={(pageNo, pageSize) => listMySubscriptions({ ...last.current, pageNo, pageSize })}
        />,
      ]}
      request={async (p) => {
        last.current = cleanParams(p);
        const page = await listMySubscriptions({ ...last.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
        return { data: page.records, total: page.total, success: true };
      }}
    />
    </>
  );
}
