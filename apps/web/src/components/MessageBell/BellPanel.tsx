import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Spin, Tag, message as toast } from 'antd';
import { useState } from 'react';
import type { MessageRecord, UnreadCount } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { markMessagesRead } from '@/hooks/useMessageChannel';
import { MESSAGE_LIST_PATH, messageTime } from '@/lib/message';
import { listMessages } from '@/services/message';

/** How many unread messages the bell's panel lists (the rest are on 我的消息). */
export const BELL_LATEST = 5;

export interface BellPanelProps {
  unread: UnreadCount | null;
  /** the channel's version: the list loads again on every change */
  version: number;
  onNavigate: (to: string) => void;
  onFollow: (message: MessageRecord) => void;
}

/** The bell's panel: the latest unread messages with 查看, and 全部已读 / 查看全部. */
export default function BellPanel({ unread, version, onNavigate, onFollow }: BellPanelProps) {
  const latest = useQuery({
    queryKey: ['message', 'bell', version],
    queryFn: () => listMessages({ unread: 'true', pageNo: 1, pageSize: BELL_LATEST }),
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
  const [marking, setMarking] = useState(false);
  const count = unread?.count ?? latest.data?.total ?? 0;
  const records = latest.data?.records ?? [];

  const markAll = async () => {
    setMarking(true);
    try {
      const result = await markMessagesRead({ all: true });
      toast.success(result.marked > 0 ? `已将 ${result.marked} 条消息标为已读` : '没有未读消息');
    } catch (error) {
      toast.error(errorMessage(error, '标记失败，请稍后重试'));
    } finally {
      setMarking(false);
    }
  };

  return (
    <div className="coalx-bell-panel" data-testid="message-bell-panel">
      <div className="coalx-bell-head">
        <span>消息中心</span>
        <small>{count > 0 ? `${count} 条未读` : '没有未读消息'}</small>
      </div>
      <div className="coalx-bell-list">
        {latest.isLoading ? (
          <div className="coalx-bell-empty" style={{ textAlign: 'center' }}>
            <Spin size="small" />
          </div>
        ) : latest.isError ? (
          <div className="coalx-bell-empty">
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={errorMessage(latest.error, '消息加载失败，请稍后重试')} />
          </div>
        ) : records.length === 0 ? (
          <div className="coalx-bell-empty">
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无未读消息" />
          </div>
        ) : (
          records.map((m) => (
            <div key={m.id} className="coalx-bell-item" data-testid="message-bell-item">
              <div className="coalx-bell-item-main">
                <div className="coalx-bell-item-title">
                  <span title={m.title}>{m.title}</span>
                  {m.urgent && (
                    <Tag color="red" bordered={false} style={{ marginInlineEnd: 0 }}>
                      紧急
                    </Tag>
                  )}
                </div>
                <div className="coalx-bell-item-content" title={m.content}>
                  {m.content}
                </div>
                <div className="coalx-bell-item-time">{messageTime(m.createdAt)}</div>
              </div>
              <Button type="link" size="small" className="coalx-bell-item-action" onClick={() => onFollow(m)}>
                查看
              </Button>
            </div>
          ))
        )}
      </div>
      <div className="coalx-bell-foot">
        <Button type="text" loading={marking} disabled={count === 0} onClick={() => void markAll()}>
          全部已读
        </Button>
        <Button type="text" onClick={() => onNavigate(MESSAGE_LIST_PATH)}>
          查看全部
        </Button>
      </div>
    </div>
  );
}
