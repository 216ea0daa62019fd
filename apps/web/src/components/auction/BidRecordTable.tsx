import { useQuery } from '@tanstack/react-query';
import { Table, Tag } from 'antd';
import { formatFen } from '@coalx/shared';
import { listBidRecords } from '@/services/auction';

/** The bid history of one auction (the operator also sees the enterprise behind each alias). */
export default function BidRecordTable({ tradeId, showEnterprise = false }: { tradeId: string; showEnterprise?: boolean }) {
  const bids = useQuery({ queryKey: ['auction', 'bids', tradeId, 'ws'], queryFn: () => listBidRecords({ tradeId, pageNo: 1, pageSize: 100 }), refetchInterval: 5_000 });
  return (
    <Table
      title={() => <b>出价记录（共 {bids.data?.total ?? 0} 次）</b>}
      rowKey="seq"
      size="small"
      loading={bids.isLoading}
      dataSource={bids.data?.records ?? []}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无出价' }}
      columns={[
        { title: '序号', dataIndex: 'seq', width: 70 },
        { title: '竞买人', dataIndex: 'bidder', width: 100 },
        ...(showEnterprise ? [{ title: '企业名称', dataIndex: 'enterpriseName', render: (v: string | null) => v ?? '-' }] : []),
        { title: '出价 (元/吨)', dataIndex: 'price', align: 'right' as const, render: (v: number) => formatFen(v) },
        { title: '延时', dataIndex: 'inExtension', width: 70, render: (v: boolean) => (v ? <Tag color="volcano">延时</Tag> : '') },
        { title: '出价时间', dataIndex: 'time', width: 170 },
      ]}
    />
  );
}
