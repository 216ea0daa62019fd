import { useRef, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Drawer, Space, Table } from 'antd';
import { Link, useNavigate } from 'react-router';
import { formatFen, formatTons, HangState, type ListingView, type SubscriptionView } from '@coalx/shared';
import ExportExcelButton from '@/components/ExportExcel';
import { listMyListings, listSubscriptionsOfListing, type MyListingQuery } from '@/services/listing';
import { ListingDescriptions, ListingHeadline } from '@/components/listing/ListingDetail';
import { SubscriptionStatusBadge, listingColumns, listingDetails, listingExcel } from '@/components/listing/columns';
import { rowDetails } from '@/components/RowDetails';
import { WS_PAGINATION, cleanParams } from '@/lib/pro-table';

/** 我的挂牌: my enterprise's listings with audit status and market state; edit a draft or rejected one. */
export default function ListingQueryPage() {
  const navigate = useNavigate();
  const action = useRef<ActionType>(null);
  const last = useRef<Omit<MyListingQuery, 'pageNo' | 'pageSize'>>({});
  const [viewing, setViewing] = useState<ListingView | null>(null);
  const [subs, setSubs] = useState<SubscriptionView[] | null>(null);

  const open = async (r: ListingView) => {
    setViewing(r);
    setSubs(null);
    if (r.status === 'approved') {
      const page = await listSubscriptionsOfListing({ tradeId: r.tradeId, pageNo: 1, pageSize: 50 }).catch(() => ({ records: [] as SubscriptionView[] }));
      setSubs(page.records);
    }
  };

  const columns: ProColumns<ListingView>[] = [
    ...listingColumns,
    {
      title: '操作',
      valueType: 'option',
      width: 170,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => open(r)}>
            查看
          </Button>
          {(r.status === 'draft' || r.status === 'rejected') && (
            <Button type="link" size="small" onClick={() => navigate(`/listingTrade/tradeStart?tradeType=${r.tradeType}&tradeId=${r.tradeId}`)}>
              修改
            </Button>
          )}
          {r.status === 'approved' && r.hangState === HangState.ended && (
            <Link to={`/listingResult?tradeId=${r.tradeId}`}>
              <Button type="link" size="small">
                结果公告
              </Button>
            </Link>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<ListingView>
        headerTitle="我的挂牌"
        actionRef={action}
        rowKey="tradeId"
        columns={columns}
        tableLayout="fixed"
        expandable={rowDetails(listingDetails)}
        search={{ labelWidth: 'auto' }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <Button key="sell" type="primary" icon={<PlusOutlined />} onClick={() => navigate('/listingTrade/tradeStart?tradeType=0')}>
            挂牌销售
          </Button>,
          <Button key="buy" icon={<PlusOutlined />} onClick={() => navigate('/listingTrade/tradeStart?tradeType=1')}>
            挂牌采购
          </Button>,
          <ExportExcelButton<ListingView>
            key="export"
            fileName="我的挂牌"
            columns={listingExcel}
            fetchPage={(pageNo, pageSize) => listMyListings({ ...last.current, pageNo, pageSize })}
          />,
        ]}
        request={async (p) => {
          last.current = cleanParams(p, ['tradeType', 'hangState']) as typeof last.current;
          const page = await listMyListings({ ...last.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <Drawer width={960} open={viewing !== null} onClose={() => setViewing(null)} title={viewing ? `挂牌详情 ${viewing.tradeId}` : ''} destroyOnHidden>
        {viewing && (
          <div className="coalx-page" style={{ padding: 0 }}>
            <ListingHeadline listing={viewing} />
            <ListingDescriptions listing={viewing} showAudit />
            {viewing.status === 'approved' && (
              <Table<SubscriptionView>
                title={() => <b>摘牌记录</b>}
                rowKey="id"
                size="small"
                loading={subs === null}
                dataSource={subs ?? []}
                pagination={false}
                locale={{ emptyText: '暂无摘牌' }}
                columns={[
                  { title: '摘牌企业', dataIndex: 'subscriberName' },
                  { title: '数量', dataIndex: 'quantity', align: 'right', render: (v: number) => formatTons(v) },
                  { title: '金额 (元)', dataIndex: 'amount', align: 'right', render: (v: number) => formatFen(v) },
                  { title: '状态', dataIndex: 'status', render: (_: string, r) => <SubscriptionStatusBadge status={r.status} reason={r.declineReason} /> },
                  { title: '摘牌时间', dataIndex: 'createdAt' },
                ]}
              />
            )}
          </div>
        )}
      </Drawer>
    </>
  );
}
