import { Modal } from 'antd';
import type { ReactNode } from 'react';
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
