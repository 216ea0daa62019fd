import { Button, notification } from 'antd';
import type { MessageRecord } from '@coalx/shared';
import { messageTime } from '@/lib/message';

/** The notice's key: one per message, so a message told twice (a reconnect) shows once. */
export const noticeKey = (id: number) => `coalx-message-${id}`;

/**
 * An urgent message pushed while a CoalX tab is open (issue 28 item 5): a notice with what happened, what to do,
 * by when, and 去处理, which opens the page where it is done and marks the message read. It stays until closed or
 * followed: an urgent message is one a trader should not miss while away from the screen.
 */
export function showUrgentNotice(message: MessageRecord, follow: (message: MessageRecord) => void): void {
  const key = noticeKey(message.id);
  notification.warning({
    key,
    message: message.title,
    description: (
      <div data-testid="message-notice">
        <div>{message.content}</div>
        {message.dueAt && <div className="coalx-notice-due">截止时间：{messageTime(message.dueAt)}</div>}
      </div>
    ),
    actions: (
      <Button
        type="primary"
        size="small"
        onClick={() => {
          notification.destroy(key);
          follow(message);
        }}
      >
        去处理
      </Button>
    ),
    duration: 0,
    // bottom right: the header (the bell, the avatar menu) stays in reach while the notice is open
    placement: 'bottomRight',
  });
}
