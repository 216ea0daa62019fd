import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Breadcrumb, Card, Descriptions, Statistic, Table } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { PRICE_LABEL, formatFen, formatPrice, formatTons, type DealView } from '@coalx/shared';
import { getListingResult } from '@/services/listing';
import { TRADE_TYPE_TEXT } from '@/lib/listing';
import { placeText } from '@/components/TradeDetail';
import { ListingLoadState } from '@/components/listing/ListingDetail';
import { HangStateTag } from '@/components/listing/StateParts';
import '@/components/TradeDetail/trade.css';

/** 挂牌结果公告 (/listingResult?tradeId): the listing, the deal totals and each deal with masked names. */
export default function ListingResultPage() {
  const [params] = useSearchParams();
  const tradeId = params.get('tradeId') ?? '';
  const [pageNo, setPageNo] = useState(1);
  const query = useQuery({
    queryKey: ['listing', 'result', tradeId, pageNo],
    queryFn: () => getListingResult({ tradeId, pageNo, pageSize: 10 }),
    enabled: Boolean(tradeId),
    retry: false,
    placeholderData: (previous) => previous,
  });
  const data = query.data;
  const l = data?.listing;

  return (
    <div className="coalx-page">
      <Breadcrumb
        items={[
          { title: <Link to="/index">首页</Link> },
          { title: <Link to={`/moreListings?tradeType=${l?.tradeType ?? 0}`}>{TRADE_TYPE_TEXT[l?.tradeType ?? 0]}</Link> },
          { title: '结果公告' },
        ]}
      />
      {!data || !l ? (
        <ListingLoadState missingId={!tradeId} loading={query.isLoading} error={query.error} />
      ) : (
        <>
          <Card variant="borderless" className="coalx-listing-headline">
            <div className="coalx-listing-headline-top">
              <div>
                <div className="coalx-listing-title">
                  <span className="coalx-listing-name">{l.productName} {TRADE_TYPE_TEXT[l.tradeType]}结果公告</span>
                  <HangStateTag state={l.hangState} />
                </div>
                <div className="coalx-listing-sub">
                  交易编号 <Link to={`/listingSalesDetails?tradeId=${l.tradeId}`}>{l.tradeId}</Link>
                  <span className="coalx-dot">·</span>
                  {l.enterpriseName}
                  <span className="coalx-dot">·</span>挂牌时间 {l.listedDateStart} 至 {l.listedDateEnd}
                </div>
              </div>
            </div>
            <div className="coalx-listing-figures" style={{ gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' }}>
              <Statistic title="成交笔数" value={data.deals.total} suffix="笔" />
              <Statistic title="成交总量" value={formatTons(data.dealQuantity, false)} suffix="吨" />
              <Statistic title="成交总金额" value={formatFen(data.dealAmount)} suffix="元" valueStyle={{ color: '#e5383b' }} />
              <Statistic title={PRICE_LABEL[l.tradeType]} value={formatFen(l.price)} suffix="元/吨" />
            </div>
          </Card>
          <Card title="挂牌信息" variant="borderless" className="coalx-section-card">
            <Descriptions column={{ xs: 1, sm: 2, lg: 3 }}>
              <Descriptions.Item label="挂牌数量">{formatTons(l.quantity)}</Descriptions.Item>
              <Descriptions.Item label="已摘数量">{formatTons(l.subscribedQuantity)}</Descriptions.Item>
              <Descriptions.Item label="剩余数量">{formatTons(l.remainingQuantity)}</Descriptions.Item>
              <Descriptions.Item label="交收地点" span={2}>{placeText(l)}</Descriptions.Item>
              <Descriptions.Item label="交收日期">{l.deliveryDateStart} 至 {l.deliveryDateEnd}</Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title="成交明细" variant="borderless" className="coalx-section-card">
            <Table<DealView>
              rowKey="id"
              size="middle"
              dataSource={data.deals.records}
              locale={{ emptyText: '暂无成交' }}
              pagination={{ current: pageNo, pageSize: 10, total: data.deals.total, onChange: setPageNo, showTotal: (t) => `共 ${t} 条`, hideOnSinglePage: true }}
              columns={[
                { title: '成交编号', dataIndex: 'dealNo' },
                { title: '卖方', dataIndex: 'sellerName' },
                { title: '买方', dataIndex: 'buyerName' },
                { title: '成交数量', dataIndex: 'quantity', align: 'right', render: (v: number) => formatTons(v) },
                { title: '成交价格', dataIndex: 'price', align: 'right', render: (v: number) => formatPrice(v) },
                { title: '成交金额 (元)', dataIndex: 'amount', align: 'right', render: (v: number) => <span className="coalx-price">{formatFen(v)}</span> },
                { title: '成交时间', dataIndex: 'createdAt' },
              ]}
            />
          </Card>
        </>
      )}
    </div>
  );
}
