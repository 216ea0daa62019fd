import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ProTable } from '@ant-design/pro-components';
import { Alert, Button, Card, Col, Modal, Progress, Row, Statistic, Tag, message } from 'antd';
import { OrderStates, WEIGHING_BASES, formatTons } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { usePhone } from '@/hooks/usePhone';
import { rowDetails } from '@/components/RowDetails';
import { DELIVERY_KEYS, finishDelivery, getOrderDelivery, type DeliveryOrder, type DispatchView } from '@/services/delivery';
import DispatchModal from '../DispatchModal';
import QualityReports from '../QualityReports';
import TruckActions from '../TruckActions';
import TruckCards from '../TruckCards';
import { SIDE_TEXT } from '../parts';
import { truckColumns, truckDetails } from '../truck-columns';

/** The order's delivery in numbers: planned, loaded, arrived and signed tons against the contract quantity. */
export function DeliveryProgress({ order }: { order: DeliveryOrder }) {
  const pct = (kg: number) => Math.min(100, Math.round((kg / Math.max(order.quantityKg, 1)) * 100));
  const items = [
    { title: '已派车', kg: order.plannedKg, trucks: order.dispatchedTrucks },
    { title: '已装车', kg: order.loadedKg, trucks: order.loadedTrucks },
    { title: '已到货', kg: order.arrivedKg, trucks: order.arrivedTrucks },
    { title: '已签收', kg: order.signedKg, trucks: order.signedTrucks },
  ];
  return (
    <Row gutter={[24, 12]} className="coalx-delivery-progress">
      <Col xs={12} sm={4}>
        <Statistic title="合同数量 (吨)" value={formatTons(order.quantityKg, false)} />
      </Col>
      {items.map((item) => (
        <Col xs={12} sm={5} key={item.title}>
          <Statistic title={`${item.title} (吨)`} value={formatTons(item.kg, false)} suffix={<span style={{ fontSize: 13 }}>{item.trucks} 车</span>} />
          <Progress percent={pct(item.kg)} size="small" showInfo={false} />
        </Col>
      ))}
    </Row>
  );
}

/** One order's trucks, weigh tickets, sign-for and lab reports (订单详情), with the actions of the viewer's side. */
export default function OrderDelivery({ orderId, onChanged }: { orderId: number; onChanged?: () => void }) {
  const client = useQueryClient();
  const query = useQuery({ queryKey: DELIVERY_KEYS.order(orderId), queryFn: () => getOrderDelivery(orderId), enabled: orderId > 0 });
  const [dispatching, setDispatching] = useState(false);
  // on a phone the trucks are cards, their actions on the screen; the table stays for wider screens
  const phone = usePhone();
  const refresh = () => {
    void client.invalidateQueries({ queryKey: DELIVERY_KEYS.all });
    // the order's own card (status, counters, timeline) is the orders page's query
    void client.invalidateQueries({ queryKey: ['order'] });
    onChanged?.();
  };
  const data = query.data;
  if (!data) return query.isError ? <Alert type="error" showIcon message={errorMessage(query.error, '物流信息加载失败')} /> : <Card loading />;
  const { order, trucks, reports } = data;

  const finish = () =>
    Modal.confirm({
      title: '确认交货完毕',
      content: `累计签收 ${formatTons(order.signedKg)}（${order.signedTrucks} 车），合同数量 ${formatTons(order.quantityKg)}。确认后订单进入待结算，不能再派车。`,
      okText: '确认交货完毕',
      cancelText: '取消',
      onOk: async () => {
        try {
          await finishDelivery(order.id);
          message.success('已确认交货完毕，订单进入待结算');
          refresh();
        } catch (error) {
          message.error(errorMessage(error));
        }
      },
    });

  const toolBar = [
    order.canDispatch ? (
      <Button key="dispatch" type="primary" onClick={() => setDispatching(true)}>
        派车
      </Button>
    ) : null,
    order.canFinish ? (
      <Button key="finish" onClick={finish}>
        交货完毕
      </Button>
    ) : null,
  ];

  return (
    <div className="coalx-order-delivery">
      <Card
        className="coalx-delivery-section"
        title={
          <span>
            发运进度 <Tag color="blue" data-testid="delivery-order-status">{(OrderStates.states as Record<string, string>)[order.status] ?? order.status}</Tag>
          </span>
        }
        extra={
          <span>
            {SIDE_TEXT[order.transportSide]}负责运输 · {(WEIGHING_BASES as Record<string, string>)[order.weighingBasis]} · 合理途损 {order.transitLossPct}%
          </span>
        }
      >
        <DeliveryProgress order={order} />
      </Card>
      {phone ? (
        <Card className="coalx-delivery-section" title={`车辆（${trucks.length}）`} extra={toolBar.some(Boolean) ? <span className="coalx-truck-cards-tools">{toolBar}</span> : null}>
          <TruckCards trucks={trucks} empty={order.canDispatch ? '尚未派车，点击「派车」安排车辆' : '暂无车辆'} onChanged={refresh} />
        </Card>
      ) : (
        <ProTable<DispatchView>
          className="coalx-delivery-section"
          rowKey="id"
          headerTitle={`车辆（${trucks.length}）`}
          search={false}
          options={false}
          pagination={trucks.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
          cardBordered
          tableLayout="fixed"
          dataSource={trucks}
          locale={{ emptyText: order.canDispatch ? '尚未派车，点击「派车」安排车辆' : '暂无车辆' }}
          toolBarRender={() => toolBar}
          expandable={rowDetails<DispatchView>(truckDetails)}
          columns={[
            ...truckColumns(),
            {
              title: '操作',
              valueType: 'option',
              width: 180,
              render: (_, r) => <TruckActions truck={r} onChanged={refresh} print />,
            },
          ]}
        />
      )}
      <QualityReports order={order} reports={reports} onChanged={refresh} />
      <DispatchModal
        order={order}
        open={dispatching}
        onClose={() => setDispatching(false)}
        onDone={() => {
          setDispatching(false);
          refresh();
        }}
      />
    </div>
  );
}
