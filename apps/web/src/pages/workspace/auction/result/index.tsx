import { useRef } from 'react';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Space } from 'antd';
import { Link } from 'react-router';
import { AuctionState, formatFen, formatPrice, type AuctionView } from '@coalx/shared';
import ExportExcelButton from '@/components/ExportExcel';
import { listMyAuctionDeals, listMyAuctions } from '@/services/auction';
import { TradeContractButton } from '@/components/contract/ContractLinks';
import { WS_PAGINATION, cleanParams } from '@/lib/pro-table';
import { auctionColumns, auctionDetails, auctionExcel } from '@/components/auction/columns';
import { rowDetails, type RowDetail } from '@/components/RowDetails';
import { resultText } from '@/lib/auction';

/** 竞价结果: my enterprise's ended auctions (成交 or 流拍) with the result notice. */
export default function AuctionResultPage() {
  const last = useRef<{ tradeType?: number; tradeId?: string }>({});
  const columns: ProColumns<AuctionView>[] = [
    ...auctionColumns.filter((c) => !['status', 'hangState', 'state', 'bestPrice', 'deposit'].includes(String(c.dataIndex))),
    { title: '结果', dataIndex: 'result', width: 72, search: false, render: (_, r) => (resultText(r.result) === '成交' ? <span className="coalx-price">成交</span> : (resultText(r.result) ?? '-')) },
    { title: '成交价', dataIndex: 'bestPrice', width: 136, align: 'right', search: false, render: (_, r) => (resultText(r.result) === '成交' && r.bestPrice !== null ? <span className="coalx-price">{formatPrice(r.bestPrice)}</span> : '-') },
    {
      title: '操作',
      valueType: 'option',
      width: 190,
      render: (_, r) => (
        <Space size={4}>
          <Link to={`/biddingResults?tradeId=${r.tradeId}`}>
            <Button size="small">结果公告</Button>
          </Link>
          {resultText(r.result) === '成交' ? <TradeContractButton tradeId={r.tradeId} loadDeals={listMyAuctionDeals} dealsPath="/auctionTrade/deal" /> : null}
        </Space>
      ),
    },
  ];
  return (
    <ProTable<AuctionView>
      headerTitle="竞价结果"
      rowKey="tradeId"
      columns={columns}
      tableLayout="fixed"
      expandable={rowDetails((a: AuctionView): RowDetail[] => [...auctionDetails(a), { label: '结束时间', value: a.currentEnd }])}
      search={{ labelWidth: 'auto' }}
      pagination={WS_PAGINATION}
      options={{ density: false, setting: false, reload: true }}
      toolBarRender={() => [
        <ExportExcelButton<AuctionView>
          key="export"
          fileName="竞价结果"
          columns={[...auctionExcel, { title: '结果', value: (r) => resultText(r.result) ?? '' }, { title: '成交价(元/吨)', value: (r) => (resultText(r.result) === '成交' && r.bestPrice !== null ? formatFen(r.bestPrice) : '') }]}
          fetchPage={(pageNo, pageSize) => listMyAuctions({ ...last.current, hangState: AuctionState.ended, status: 'approved', pageNo, pageSize })}
        />,
      ]}
      request={async (p) => {
        last.current = cleanParams(p, ['tradeType']) as typeof last.current;
        const page = await listMyAuctions({ ...last.current, hangState: AuctionState.ended, status: 'approved', pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
        return { data: page.records, total: page.total, success: true };
      }}
    />
  );
}
