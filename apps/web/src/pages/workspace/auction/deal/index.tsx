import { useRef, useState } from 'react';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Space } from 'antd';
import { Link, useSearchParams } from 'react-router';
import type { DealView } from '@coalx/shared';
import ExportExcelButton from '@/components/ExportExcel';
import { listMyAuctionDeals } from '@/services/auction';
import { dealColumns, dealDetails, dealExcel } from '@/components/listing/columns';
import { rowDetails } from '@/components/RowDetails';
import { WS_PAGINATION, cleanParams } from '@/lib/pro-table';
import OppositeCompanyModal from '@/components/OppositeCompanyModal';
import { auctionLink } from '@/components/auction/columns';
import { AUCTION_TYPE_TEXT } from '@/lib/auction';
import { DealContractLink } from '@/components/contract/ContractLinks';

/** 竞价成交: auction deals of my enterprise, as seller or buyer, each with its contract. */
export default function AuctionDealPage() {
  const [params] = useSearchParams();
  const last = useRef<{ tradeId?: string }>({});
  const [dealId, setDealId] = useState<number | null>(null);
  const columns: ProColumns<DealView>[] = [
    ...dealColumns.map((c) =>
      c.dataIndex === 'tradeId' ? { ...c, render: (_: unknown, r: DealView) => auctionLink(r.tradeId) } : c,
    ),
    {
      title: '操作',
      valueType: 'option',
      width: 240,
      render: (_, r) => (
        <Space size={0}>
          <DealContractLink dealNo={r.dealNo} />
          <Link to={`/biddingResults?tradeId=${r.tradeId}`}>
            <Button type="link" size="small">
              结果公告
            </Button>
          </Link>
          <Button type="link" size="small" onClick={() => setDealId(r.id)}>
            对方信息
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <>
      <ProTable<DealView>
        headerTitle="竞价成交"
        rowKey="id"
        columns={columns}
        tableLayout="fixed"
        expandable={rowDetails(dealDetails(AUCTION_TYPE_TEXT))}
        search={{ labelWidth: 'auto' }}
        form={{ initialValues: { tradeId: params.get('tradeId') ?? undefined } }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <ExportExcelButton<DealView>
            key="export"
            fileName="竞价成交"
            columns={dealExcel.map((c) => (c.title === '交易类型' ? { ...c, value: (r: DealView) => AUCTION_TYPE_TEXT[r.tradeType] } : c))}
            fetchPage={(pageNo, pageSize) => listMyAuctionDeals({ ...last.current, pageNo, pageSize })}
          />,
        ]}
        request={async (p) => {
          last.current = cleanParams(p);
          const page = await listMyAuctionDeals({ ...last.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <OppositeCompanyModal dealId={dealId} onClose={() => setDealId(null)} />
    </>
  );
}
