import { Modal } from 'antd';
import { useCallback, type ReactNode } from 'react';
import { usePaymentAuth, type PaymentAuthOptions, type PaymentSubmit } from '@/components/PayAuth';
import './money-confirm.css';

export interface MoneyConfirmRow {
  label: string;
  value: ReactNode;
  /** The amount that moves: shown large. */
  strong?: boolean;
}

export interface MoneyConfirmOptions {
  /** e.g. 确认摘牌 */
  title: string;
  /** Amount, deposit, quantity… in the order a trader checks them. */
  rows: MoneyConfirmRow[];
  /** What happens once confirmed, in one or two sentences. */
  next: ReactNode;
  okText: string;
}

/**
 * Every money action asks first (issue 11): a dialog with the amount, the deposit, the quantity and what happens
 * next, before the pay password or key step and before anything moves. Resolves true only on the explicit OK.
 */
export function confirmMoney({ title, rows, next, okText }: MoneyConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    Modal.confirm({
      title,
      width: 480,
      icon: null,
      className: 'coalx-money-confirm',
      content: (
        <div data-testid="money-confirm">
          <dl className="coalx-money-confirm-rows">
            {rows.map((row) => (
              <div key={row.label} className={row.strong ? 'strong' : undefined}>
                <dt>{row.label}</dt>
                <dd>{row.value}</dd>
              </div>
            ))}
          </dl>
          <div className="coalx-money-confirm-next">{next}</div>
        </div>
      ),
      okText,
      cancelText: '取消',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/**
 * Every money action of an enterprise goes one way (issue 27: 摘牌, 竞价报名, 出金, 支付货款, 确认结算, 确认月度调运):
 *
 *   const { act, holder } = useMoneyAction();
 *   const result = await act(confirmation, (auth) => request({ ...body, ...auth }), { action: 'withdrawal', payload: body });
 *   ...render {holder} somewhere in the page
 *
 * first the confirmation with the amount (confirmMoney), then, whatever the switches say, the pay password
 * (支付密码, PayPassword on) or the key signature (UkeySwitch on) through PayAuth, then the request. Resolves with
 * the request's result, or undefined when the user cancels the confirmation or the password / key step;
 * `onConfirmed` runs once the amount is confirmed (a page shows its button busy from there).
 */
export function useMoneyAction() {
  const { run, holder, mode } = usePaymentAuth();
  const act = useCallback(
    async <T,>(confirmation: MoneyConfirmOptions, submit: PaymentSubmit<T>, options: PaymentAuthOptions & { onConfirmed?: () => void }): Promise<T | undefined> => {
      if (!(await confirmMoney(confirmation))) return undefined;
      options.onConfirmed?.();
      return run(submit, options);
    },
    [run],
  );
  return { act, holder, mode };
}
