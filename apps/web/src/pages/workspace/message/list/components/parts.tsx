import { Badge, Space, Tag, Typography } from 'antd';
import type { MessageRecord } from '@coalx/shared';
import { categoryName, dueState, messageTime } from '@/lib/message';

/** 未读 (a blue dot) / 已读 (grey). */
export function ReadState({ read }: { read: boolean }) {
  return read ? <Badge status="default" text="已读" /> : <Badge status="processing" text="未读" />;
}

/** The title with its category, and 紧急 when the message is urgent. */
export function MessageTitle({ message }: { message: MessageRecord }) {
  return (
    <Space size={4} wrap className="coalx-msg-title">
      <Typography.Text strong={!message.read} title={message.title}>
        {message.title}
      </Typography.Text>
      {message.urgent && (
        <Tag color="red" bordered={false}>
          紧急
        </Tag>
      )}
      <Tag bordered={false}>{categoryName(message.category)}</Tag>
    </Space>
  );
}

/** 截止时间 with how near it is: 即将到期 within 4 hours, 已逾期 once past (unread only). */
export function DueTime({ message, now }: { message: MessageRecord; now?: number }) {
  if (!message.dueAt) return <Typography.Text type="secondary">-</Typography.Text>;
  const state = dueState(message, now);
  return (
    <span className="coalx-msg-due">
      <span className="coalx-num">{messageTime(message.dueAt)}</span>
      {state === 'overdue' && (
        <Tag color="error" bordered={false}>
          已逾期
        </Tag>
      )}
      {state === 'soon' && (
        <Tag color="warning" bordered={false}>
          即将到期
        </Tag>
      )}
    </span>
  );
}
