import type { MarkReadInput, MessageQuery, MessageRecord, MessageSettings, MessageSettingsInput, UnreadCount } from '@coalx/shared';
import { requestResult, type PageResult } from '@/app/request';

/**
 * 消息中心 calls (issue 28; apps/server/src/api/message.routes.ts is the contract, its shapes are the shared
 * message schemas).
 */

export type { MessageRecord, MessageSettings, MessageSettingsInput, UnreadCount };

export interface MarkReadResult {
  marked: number;
  unread: UnreadCount;
}

/** Newest first; `unread: 'true'` for the unread ones only; dates are Asia/Shanghai days, both ends included. */
export const listMessages = (query: Partial<MessageQuery>) =>
  requestResult<PageResult<MessageRecord>>('/api/message/list', { params: { ...query } });

export const getUnreadCount = () => requestResult<UnreadCount>('/api/message/unreadCount');

export const markRead = (input: MarkReadInput) => requestResult<MarkReadResult>('/api/message/read', { method: 'POST', data: input });

export const getMessageSettings = () => requestResult<MessageSettings>('/api/message/settings');

export const saveMessageSettings = (input: MessageSettingsInput) =>
  requestResult<MessageSettings>('/api/message/settings', { method: 'POST', data: input });
