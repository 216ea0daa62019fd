import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ProTable, type ActionType } from '@ant-design/pro-components';
import { Card, Progress, Tag } from 'antd';
import { Link } from 'react-router';
import { OrderStates, formatTons } from '@coalx/shared';
import TonsByDayChart from '@/components/delivery/TonsByDayChart';
import OrderDelivery from '@/components/delivery/OrderDelivery';
import { SIDE_TEXT } from '@/components/delivery/parts';
import { cleanParams, WS_PAGINATION } from '@/lib/pro-table';
import { DELIVERY_KEYS, getDeliveryDaily, listDeliveryOrders, type DeliveryOrder } from '@/services/delivery';

/**
 * 物流信息: the enterprise's orders with delivery under way or done; for the chosen one its tons by day and its
 * trucks with the actions of the viewer's side (the same part the order detail shows).
 */
export default function LogisticsInfoPage() {
  const [chosen, setChosen] = useState<DeliveryOrder | null>(null);
  const actionRef = useRef<ActionType>(undefined);
  const daily = useQuery({ queryKey: DELIVERY_KEYS.daily(chosen?.id ?? 0), queryFn: () => getDeliveryDaily(chosen!.id), enabled: chosen !== null });
  const pct = (o: DeliveryOrder) => Math.min(100, Math.round((o.signedKg / Math.max(o.quantityKg, 1)) * 100));
  return (
    <>
      <ProTable<DeliveryOrder>
        rowKey="id"
        actionRef={actionRef}
        headerTitle="订单发运进度"
        cardBordered
        tableLayout="fixed"
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        locale={{ emptyText: '暂无发运中的订单' }}
        rowClassName={(r) => (r.id === chosen?.id ? 'ant-table-row-selected' : '')}
        onRow={(r) => ({ onClick: () => setChosen(r), style: { cursor: 'pointer' } })}
        columns={[
          {
            title: '订单编号',
            dataIndex: 'orderNo',
            width: 150,
            fieldProps: { placeholder: '请输入订单编号' },
            render: (_, r) => (
              <Link to={`/order/info?id=${r.id}`} className="coalx-num" onClick={(e) => e.stopPropagation()}>
                {r.orderNo}
              </Link>
            ),
          },
          { title: '产品', dataIndex: 'productName', width: 110, search: false, ellipsis: true },
          {
            title: '对方企业',
            dataIndex: 'counterparty',
            width: 190,
            search: false,
            ellipsis: true,
            render: (_, r) => (r.mySide === 'seller' ? r.buyerName : r.mySide === 'buyer' ? r.sellerName : `${r.sellerName} → ${r.buyerName}`),
          },
          { title: '运输方', dataIndex: 'transportSide', width: 70, search: false, render: (_, r) => SIDE_TEXT[r.transportSide] },
          { title: '合同(吨)', dataIndex: 'quantityKg', width: 100, align: 'right', search: false, render: (_, r) => <span className="coalx-num">{formatTons(r.quantityKg, false)}</span> },
          { title: '已派(吨)', dataIndex: 'plannedKg', width: 100, align: 'right', search: false, render: (_, r) => <span className="coalx-num">{formatTons(r.plannedKg, false)}</span> },
          { title: '已签收(吨)', dataIndex: 'signedKg', width: 100, align: 'right', search: false, render: (_, r) => <span className="coalx-num">{formatTons(r.signedKg, false)}</span> },
          { title: '签收进度', dataIndex: 'progress', width: 140, search: false, render: (_, r) => <Progress percent={pct(r)} size="small" /> },
          { title: '状态', dataIndex: 'status', width: 80, search: false, render: (_, r) => <Tag>{(OrderStates.states as Record<string, string>)[r.status] ?? r.status}</Tag> },
        ]}
        request={async (p) => {
          const query = cleanParams(p) as { orderNo?: string };
          const page = await listDeliveryOrders({ ...query, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          // keep the chosen order (refreshed), or take the first
          setChosen((current) => page.records.find((r) => r.id === current?.id) ?? page.records[0] ?? current);
          return { data: page.records, total: page.total, success: true };
        }}
      />
      {chosen ? (
        <>
          <Card title={`${chosen.orderNo} 每日发运（吨）`} style={{ margin: '16px 0' }} extra={`${chosen.productName} · ${chosen.sellerName} → ${chosen.buyerName}`}>
            {daily.data ? <TonsByDayChart days={daily.data} /> : <Card loading bordered={false} />}
          </Card>
          <OrderDelivery orderId={chosen.id} onChanged={() => actionRef.current?.reload()} />
        </>
      ) : null}
    </>
  );
}
