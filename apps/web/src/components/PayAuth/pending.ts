import type { ReactNode } from 'react';
import type { UkeyAction } from '@coalx/shared';
import type { PaymentAuth } from '@/services/funds';

/** The types the payment-auth hook and its modals share (a file of their own, so the modals need not import the hook). */
export type PaymentSubmit<T> = (auth: PaymentAuth) => Promise<T>;

export interface PaymentAuthOptions {
  /** What the key signs: one of UKEY_ACTIONS (packages/shared), the server's money actions. */
  action?: UkeyAction;
  /** The request fields the key signs (the body without payPassword / ukeySignature). */
  payload?: Record<string, unknown>;
  /** Modal title; default '请输入支付密码'. */
  title?: ReactNode;
  /** Shown above the password cells, e.g. the amount being moved. */
  description?: ReactNode;
  /**
   * The action is itself signed with a certificate (a contract): only the pay password may still be asked for,
   * whenever the PayPassword switch is on, whatever the UkeySwitch says.
   */
  passwordOnly?: boolean;
}

export interface Pending {
  mode: 'password' | 'ukey';
  submit: PaymentSubmit<unknown>;
  resolve: (value: unknown) => void;
  options: PaymentAuthOptions;
  /** Changes per run so the modal starts empty each time. */
  key: number;
}
