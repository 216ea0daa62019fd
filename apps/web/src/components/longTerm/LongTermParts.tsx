import { Modal, Space, Tag, message } from 'antd';
import { CALL_OFF_STATUS, LONG_TERM_STATUS, type CallOffStatus, type Fulfilment, type LongTermStatus } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { rateText } from '@/lib/long-term';
import type { LongTermDetail } from '@/services/longTerm';
import './long-term.css';

const STATUS_COLOR: Record<LongTermStatus, string> = {
  draft: 'default',
  open: 'processing',
  signing: 'gold',
  executing: 'success',
  expired: 'default',
  terminated: 'error',
  withdrawn: 'default',
};

export function LongTermStatusTag({ status }: { status: LongTermStatus }) {
  return (
    <Tag color={STATUS_COLOR[status]} className="coalx-lt-tag" data-status={status}>
      {LONG_TERM_STATUS[status]}
    </Tag>
  );
}

const CALL_OFF_COLOR: Record<CallOffStatus, string> = { pending: 'processing', accepted: 'success', declined: 'error', withdrawn: 'default' };

export function CallOffStatusTag({ status }: { status: CallOffStatus }) {
  return (
    <Tag color={CALL_OFF_COLOR[status]} className="coalx-lt-tag">
      {CALL_OFF_STATUS[status]}
    </Tag>
  );
}

/** 履约预警: a finished month (or the deal over its finished months) below the warning line. */
export function FlagTag() {
  return (
    <Tag color="red" className="coalx-lt-tag">
      履约预警
    </Tag>
  );
}

/** 累计履约率 with the warning tag when below the line (`stacked`: the tag under the rate, for a narrow column). */
export function FulfilmentRate({ fulfilment, stacked }: { fulfilment: Pick<Fulfilment, 'rate' | 'flagged'>; stacked?: boolean }) {
  return (
    <Space size={4} wrap={false} direction={stacked ? 'vertical' : 'horizontal'}>
      <span className={`coalx-num${fulfilment.flagged ? ' coalx-lt-flagged' : ''}`}>{rateText(fulfilment.rate)}</span>
      {fulfilment.flagged ? <FlagTag /> : null}
    </Space>
  );
}

/** Modal.confirm as a promise: true only on the explicit OK. */
export function ask(options: { title: string; content: React.ReactNode; okText: string; danger?: boolean }): Promise<boolean> {
  return new Promise((resolve) => {
    Modal.confirm({
      title: options.title,
      content: options.content,
      okText: options.okText,
      okButtonProps: options.danger ? { danger: true } : undefined,
      cancelText: '取消',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/**
 * One action on a long-term deal: ask first, call, say what happened (the server's Chinese refusal when it
 * refuses) and hand the fresh detail on. Resolves the detail, or null when cancelled or refused.
 */
export async function runAction(
  call: () => Promise<LongTermDetail>,
  done: string,
  confirm?: Parameters<typeof ask>[0],
): Promise<LongTermDetail | null> {
  if (confirm && !(await ask(confirm))) return null;
  try {
    const detail = await call();
    message.success(done);
    return detail;
  } catch (error) {
    message.error(errorMessage(error));
    return null;
  }
}
