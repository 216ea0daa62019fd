import LinkFilterNotice from '@/components/LinkFilterNotice';
import { useLinkFilters } from '@/hooks/useLinkFilters';
import { AuctionState } from '@coalx/shared';
import { useRef, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Drawer, Space } from 'antd';
import { Link, useNavigate } from 'react-router';
import type { AuctionView } from '@coalx/shared';
import ExportExcelButton from '@/components/ExportExcel';
import { listMyAuctions, type MyAuctionQuery } from '@/services/auction';
import { AuctionDescriptions, AuctionHeadline, AuctionTableButton } from '@/components/auction/AuctionParts';
import { WS_PAGINATION, cleanParams } from '@/lib/pro-table';
import BidRecordTable from '@/components/auction/BidRecordTable';
import { auctionColumns, auctionDetails, auctionExcel } from '@/components/auction/columns';
import { rowDetails } from '@/components/RowDetails';

/** 我的竞价: my enterprise's auctions with audit and market state; edit a draft or rejected one; watch the bids. */
export default function AuctionQueryPage() {
  // a 待办 opens the list filtered by the link's startsToday
  const link = useLinkFilters(['startsToday'] as const);
  const navigate = useNavigate();
  const last = useRef<Omit<MyAuctionQuery, 'pageNo' | 'pageSize'>>({});
  const [viewing, setViewing] = useState<AuctionView | null>(null);

  const columns: ProColumns<AuctionView>[] = [
    ...auctionColumns,
    {
      title: '操作',
      valueType: 'option',
      width: 150,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(r)}>
            查看
          </Button>
          {(r.status === 'draft' || r.status === 'rejected') && (
            <Button type="link" size="small" onClick={() => navigate(`/listingTrade/Bidding?tradeType=${r.tradeType}&tradeId=${r.tradeId}`)}>
              修改
            </Button>
          )}
          {r.status === 'approved' && r.hangState >= AuctionState.waiting && (
            <Link to={r.hangState === AuctionState.ended ? `/biddingResults?tradeId=${r.tradeId}` : `/deal/bidding?tradeId=${r.tradeId}`}>
              <Button type="link" size="small">
                {r.hangState === AuctionState.ended ? '结果公告' : '竞价室'}
              </Button>
            </Link>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <LinkFilterNotice label={link.filters.startsToday === '1' ? '今日开始出价的本企业竞价' : null} onClear={link.clear} />
      <ProTable<AuctionView>
        params={link.filters}
        headerTitle="我的竞价"
        rowKey="tradeId"
        columns={columns}
        tableLayout="fixed"
        expandable={rowDetails(auctionDetails)}
        search={{ labelWidth: 'auto' }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <Button key="sell" type="primary" icon={<PlusOutlined />} onClick={() => navigate('/listingTrade/Bidding?tradeType=2')}>
            竞价销售
          </Button>,
          <Button key="buy" icon={<PlusOutlined />} onClick={() => navigate('/listingTrade/Bidding?tradeType=3')}>
            竞价采购
          </Button>,
          <ExportExcelButton<AuctionView> key="export" fileName="我的竞价" columns={auctionExcel} fetchPage={(pageNo, pageSize) => listMyAuctions({ ...last.current, pageNo, pageSize })} />,
        ]}
        request={async (p) => {
          last.current = cleanParams(p, ['tradeType', 'hangState']) as typeof last.current;
          const page = await listMyAuctions({ ...last.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <Drawer width={980} open={viewing !== null} onClose={() => setViewing(null)} title={viewing ? `竞价详情 ${viewing.tradeId}` : ''} destroyOnHidden>
        {viewing && (
          <div className="coalx-page" style={{ padding: 0 }}>
            <AuctionHeadline auction={viewing} extra={viewing.status === 'approved' ? <AuctionTableButton tradeId={viewing.tradeId} hangState={viewing.hangState} size="middle" /> : undefined} />
            {viewing.status === 'approved' && <BidRecordTable tradeId={viewing.tradeId} />}
            <AuctionDescriptions auction={viewing} showAudit />
          </div>
        )}
      </Drawer>
    </>
  );
}
