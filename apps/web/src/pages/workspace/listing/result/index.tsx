import { useRef } from 'react';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Space } from 'antd';
import { Link } from 'react-router';
import { formatTons, HangState, type ListingView } from '@coalx/shared';
import ExportExcelButton from '@/components/ExportExcel';
import { listMyDeals, listMyListings } from '@/services/listing';
import { TradeContractButton } from '@/components/contract/ContractLinks';
import { listingColumns, listingDetails, listingExcel } from '@/components/listing/columns';
import { rowDetails } from '@/components/RowDetails';
import { WS_PAGINATION, cleanParams } from '@/lib/pro-table';

/** 挂牌结果: my enterprise's ended listings, each with its result notice. */
export default function ListingResultListPage() {
  const last = useRef<{ tradeId?: string; tradeType?: number }>({});
  const columns: ProColumns<ListingView>[] = [
    ...listingColumns.filter((c) => !['status', 'hangState', 'state'].includes(String(c.dataIndex))),
    { title: '未摘数量', dataIndex: 'remainingQuantity', search: false, align: 'right', width: 124, render: (_, r) => <span className="coalx-num">{formatTons(r.remainingQuantity)}</span> },
    {
      title: '操作',
      valueType: 'option',
      width: 180,
      render: (_, r) => (
        <Space size={0}>
          <Link to={`/listingResult?tradeId=${r.tradeId}`}>
            <Button type="link" size="small">结果公告</Button>
          </Link>
          {r.subscribedQuantity > 0 ? <TradeContractButton tradeId={r.tradeId} loadDeals={listMyDeals} dealsPath="/listingTrade/deal" /> : null}
        </Space>
      ),
    },
  ];
  const query = (pageNo: number, pageSize: number) => listMyListings({ ...last.current, status: 'approved', hangState: HangState.ended, pageNo, pageSize });
  return (
    <ProTable<ListingView>
      headerTitle="挂牌结果（已结束的挂牌）"
      rowKey="tradeId"
      columns={columns}
      tableLayout="fixed"
      expandable={rowDetails(listingDetails)}
      search={{ labelWidth: 'auto' }}
      pagination={WS_PAGINATION}
      options={{ density: false, setting: false, reload: true }}
      toolBarRender={() => [<ExportExcelButton<ListingView> key="export" fileName="挂牌结果" columns={listingExcel} fetchPage={query} />]}
      request={async (p) => {
        last.current = cleanParams(p, ['tradeType']);
        const page = await query(p.current ?? 1, p.pageSize ?? 10);
        return { data: page.records, total: page.total, success: true };
      }}
    />
  );
}
