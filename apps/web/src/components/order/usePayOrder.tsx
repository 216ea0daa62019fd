import { useRef, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Modal, message } from 'antd';
import { useNavigate } from 'react-router';
import { formatFen } from '@coalx/shared';
import { errorMessage, isRequestError } from '@/app/request';
import { yuan } from '@/components/Money';
import { useMoneyAction } from '@/components/MoneyConfirm';
import { newRequestId } from '@/components/PayAuth';
import { getFundInfo } from '@/services/funds';
import { ORDER_KEYS, payOrder, type OrderDetail, type OrderSummary } from '@/services/order';

type Payable = Pick<OrderSummary, 'id' | 'orderNo' | 'contractNo' | 'sellerName' | 'amount' | 'prepayment' | 'paymentDeadline' | 'overdue'>;

/** A refusal for lack of funds, kept apart so the shortfall dialog (with 去入金) shows instead of a bare message. */
const SHORT = Symbol('funds_insufficient');

/**
 * 支付货款, the same on the order's page and on 货款支付: the amount first (MoneyConfirm), then the pay password or
 * key (PayAuth), then one request; a shortfall, seen before or refused by the server, offers 去入金. One request id
 * per order while this page is open, so a retry after a lost answer never pays twice.
 */
export function usePayOrder(onPaid?: (detail: OrderDetail) => void): { pay: (order: Payable) => Promise<void>; holder: ReactNode } {
  const { act, holder } = useMoneyAction();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const requestIds = useRef(new Map<number, string>());

  const showShortfall = (order: Payable, available: number | null, reason?: string) => {
    Modal.confirm({
      title: '可用资金不足',
      content: (
        <div data-testid="pay-shortfall">
          <p>
            订单 {order.orderNo} 应付预付款 <b>{yuan(order.prepayment)}</b>
            {available === null ? '' : `，当前可用资金 ${yuan(available)}`}。
          </p>
          <p>{reason ?? '请先入金，交易中心确认到账后再付款。'}</p>
        </div>
      ),
      okText: '去入金',
      cancelText: '取消',
      onOk: () => navigate('/financial/application'),
    });
  };

  const pay = async (order: Payable) => {
    let available: number | null = null;
    try {
      available = (await getFundInfo()).available;
    } catch {
      // the server decides; the balance is only a hint here
    }
    if (available !== null && available < order.prepayment) {
      showShortfall(order, available);
      return;
    }
    const confirmation = {
      title: '确认支付货款',
      rows: [
        { label: '订单编号', value: order.orderNo },
        { label: '合同编号', value: order.contractNo },
        { label: '卖方', value: order.sellerName },
        { label: '合同金额', value: yuan(order.amount) },
        { label: '付款截止', value: `${order.paymentDeadline}${order.overdue ? '（已逾期）' : ''}` },
        { label: '本次支付', value: yuan(order.prepayment), strong: true },
      ],
      next: `确认后立即从可用资金冻结 ¥${formatFen(order.prepayment)} 托管于本订单，订单进入待发货；结算时由托管货款支付卖方，订单终止则解冻退回。`,
      okText: '确认付款',
    };
    let requestId = requestIds.current.get(order.id);
    if (!requestId) requestIds.current.set(order.id, (requestId = newRequestId()));
    try {
      const result = await act<OrderDetail | typeof SHORT>(
        confirmation,
        async (auth) => {
          try {
            return await payOrder(order.id, { requestId: requestId!, ...auth });
          } catch (error) {
            if (isRequestError(error) && error.error === 'funds_insufficient') return SHORT;
            throw error;
          }
        },
        {
          action: 'order_pay',
          payload: { orderId: order.id, requestId },
          title: '支付货款：请输入支付密码',
          description: `订单 ${order.orderNo}，支付预付款 ${yuan(order.prepayment)}`,
        },
      );
      if (result === undefined) return;
      if (result === SHORT) {
        showShortfall(order, null, '可用资金已不足以支付本订单，请先入金。');
        return;
      }
      requestIds.current.delete(order.id);
      message.success('付款成功，预付款已冻结托管');
      void queryClient.invalidateQueries({ queryKey: ORDER_KEYS.all });
      void queryClient.invalidateQueries({ queryKey: ['funds'] });
      onPaid?.(result);
    } catch (error) {
      message.error(errorMessage(error, '付款失败，请稍后重试'));
    }
  };

  return { pay, holder };
}
