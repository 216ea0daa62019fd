import { useState } from 'react';
import { message as toast } from 'antd';
import { useNavigate } from 'react-router';
import type { MessageRecord } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { followMessage, markMessagesRead } from '@/hooks/useMessageChannel';

/**
 * The row and toolbar actions of 我的消息: 去处理 (opens the page, marks read), 标为已读 (one or the selected),
 * 全部标为已读. A mark updates the bell at once; the list reloads when the channel's version moves.
 */
export function useMessageActions() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'all' | 'selected' | number | null>(null);

  const mark = async (which: 'all' | 'selected' | number, ids: number[] | 'all') => {
    setBusy(which);
    try {
      const result = await markMessagesRead(ids === 'all' ? { all: true } : { ids });
      toast.success(result.marked > 0 ? `已将 ${result.marked} 条消息标为已读` : '没有需要标记的未读消息');
      return true;
    } catch (error) {
      toast.error(errorMessage(error, '标记失败，请稍后重试'));
      return false;
    } finally {
      setBusy(null);
    }
  };

  return {
    busy,
    follow: (m: MessageRecord) => followMessage(m, navigate),
    markOne: (m: MessageRecord) => mark(m.id, [m.id]),
    markSelected: (ids: number[]) => mark('selected', ids),
    markAll: () => mark('all', 'all'),
  };
}
