import LinkFilterNotice from '@/components/LinkFilterNotice';
import { useLinkFilters } from '@/hooks/useLinkFilters';
import { AuctionState } from '@coalx/shared';
import { useRef } from 'react';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button } from 'antd';
import { Link } from 'react-router';
import ExportExcelButton from '@/components/ExportExcel';
import { listMyEnrolments, type EnrolmentView } from '@/services/auction';
import { WS_PAGINATION, cleanParams } from '@/lib/pro-table';
import { enrolmentColumns, enrolmentDetails, enrolmentExcel } from '@/components/auction/columns';
import { rowDetails } from '@/components/RowDetails';

/** 竞价报名: my enterprise's enrolments, with the way to the bidding room or the result notice. */
export default function AuctionSignPage() {
  // a 待办 opens the list filtered by the link's startsToday
  const link = useLinkFilters(['startsToday'] as const);
  const last = useRef<{ tradeId?: string }>({});
  const columns: ProColumns<EnrolmentView>[] = [
    ...enrolmentColumns,
    {
      title: '操作',
      valueType: 'option',
      width: 120,
      render: (_, r) =>
        r.hangState === AuctionState.ended ? (
          <Link to={`/biddingResults?tradeId=${r.tradeId}`}>
            <Button size="small">结果公告</Button>
          </Link>
        ) : (
          <Link to={`/deal/bidding?tradeId=${r.tradeId}`}>
            <Button size="small" type="primary" danger={r.hangState === AuctionState.bidding}>
              {r.hangState === AuctionState.bidding ? '参与竞价' : '进入竞价室'}
            </Button>
          </Link>
        ),
    },
  ];
  return (
    <>
    <LinkFilterNotice label={link.filters.startsToday === '1' ? '今日开始出价、本企业已报名的竞价' : null} onClear={link.clear} />
    <ProTable<EnrolmentView>
        params={link.filters}
      headerTitle="竞价报名"
      rowKey="id"
      columns={columns}
      tableLayout="fixed"
      expandable={rowDetails(enrolmentDetails)}
      search={{ labelWidth: 'auto' }}
      pagination={WS_PAGINATION}
      options={{ density: false, setting: false, reload: true }}
      toolBarRender={() => [
        <ExportExcelButton<EnrolmentView> key="export" fileName="竞价报名" columns={enrolmentExcel} fetchPage={(pageNo, pageSize) => listMyEnrolments({ ...last.current, pageNo, pageSize })} />,
      ]}
      request={async (p) => {
        last.current = cleanParams(p);
        const page = await listMyEnrolments({ ...last.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
        return { data: page.records, total: page.total, success: true };
      }}
    />
    </>
  );
}
