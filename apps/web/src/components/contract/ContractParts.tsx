import { Tag } from 'antd';
import { CONTRACT_STATUS, CONTRACT_UPLOAD_STATUS } from '@coalx/shared';
import { useWallCountdown } from '@/hooks/useWallCountdown';
import { CONTRACT_STATUS_COLOR, deadlineMatters, deadlineText, isUrgent } from '@/lib/contract';
import './contract.css';

export function ContractStatusTag({ status }: { status: string }) {
  return (
    <Tag color={CONTRACT_STATUS_COLOR[status] ?? 'default'} className="coalx-contract-status" data-status={status}>
      {(CONTRACT_STATUS as Record<string, string>)[status] ?? status}
    </Tag>
  );
}

export function UploadStatusTag({ status }: { status: string }) {
  return <Tag color={CONTRACT_STATUS_COLOR[status] ?? 'default'}>{(CONTRACT_UPLOAD_STATUS as Record<string, string>)[status] ?? status}</Tag>;
}

/**
 * The signing deadline ticking down (剩余 N 小时 M 分, red under 4 hours, 已逾期 once past). Once nobody has to
 * sign any more (effective, voided…) only the time itself is shown.
 */
export function DeadlineCountdown({ deadline, status, showTime }: { deadline: string; status: string; showTime?: boolean }) {
  const left = useWallCountdown(deadlineMatters(status) ? deadline : null);
  if (left === null) return <span className="coalx-contract-deadline-time">{deadline}</span>;
  const overdue = left <= 0 || status === 'overdue';
  return (
    <span className="coalx-contract-deadline">
      <span className={overdue || isUrgent(left) ? 'coalx-contract-deadline-urgent' : 'coalx-contract-deadline-left'} data-testid="contract-countdown">
        {overdue ? '已逾期' : deadlineText(left)}
      </span>
      {showTime ? <span className="coalx-contract-deadline-time">截止 {deadline}</span> : null}
    </span>
  );
}
