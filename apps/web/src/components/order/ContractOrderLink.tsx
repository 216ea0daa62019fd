import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { ProfileOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { ORDER_STATUS, type OrderStatus } from '@coalx/shared';
import { ORDER_KEYS, orderOfContract } from '@/services/order';

/** Contract states after which an order exists (it is made when the contract takes effect). */
const WITH_ORDER = new Set(['effective', 'performing', 'completed']);

/** 查看订单 on a contract's page, once its order has been made. */
export default function ContractOrderLink({ contractNo, status }: { contractNo: string; status: string }) {
  const navigate = useNavigate();
  const order = useQuery({
    queryKey: ORDER_KEYS.byContract(contractNo),
    queryFn: () => orderOfContract(contractNo),
    enabled: WITH_ORDER.has(status),
    retry: false,
  });
  if (!order.data) return null;
  const o = order.data;
  return (
    <Button icon={<ProfileOutlined />} onClick={() => navigate(`/order/info?id=${o.id}`)} data-testid="contract-order-link">
      查看订单 {o.orderNo}（{ORDER_STATUS[o.status as OrderStatus] ?? o.status}）
    </Button>
  );
}
