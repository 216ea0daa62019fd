import { Button, notification } from 'antd';
import type { MessageRecord } from '@coalx/shared';
import { messageTime } from '@/lib/message';

export const NOTICE_SECONDS = 30;

/** The notice's key: one per message, so a message told twice (a reconnect) shows once. */
export const noticeKey = (id: number) => `coalx-message-${id}`;

/**
 * An urgent message pushed while a CoalX tab is open (issue 28 item 5): a notice with what happened, what to do,
 * by when, and 去处理, which opens the page where it is done and marks the message read. It stays half a minute
 * (held while the pointer rests on it), long enough to be seen by a trader looking up, without covering the page's
 * corner for good; the bell keeps the message after it.
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
    duration: NOTICE_SECONDS,
    // bottom right: the header (the bell, the avatar menu) stays in reach while the notice is open
    placement: 'bottomRight',
  });
}
