import { formatDateTime } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { webhookEndpoints } from '../../db/schema/index';
import type { NoticeRule } from './types';

/** An endpoint that failed for a day was switched off: its enterprise's admins (who manage 推送接口) are told. */
const endpointDisabled: NoticeRule = async (tx, payload) => {
  const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, Number(payload.id))).limit(1);
  if (!endpoint) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [endpoint.enterpriseId], grant: 'message-webhook.edit' },
        kind: 'webhook.disabled',
        category: 'account',
        title: '推送接口已自动停用',
        content: `推送地址 ${endpoint.url} 自 ${formatDateTime(endpoint.failingSince)} 起连续推送失败超过一天，平台已自动停用。请检查接收系统后在「推送接口」中重新启用，并对失败的推送点击重新发送。`,
        link: '/message/webhook',
      },
    ],
  };
};

export const WEBHOOK_RULES: Record<string, NoticeRule> = { 'webhook.endpoint_disabled': endpointDisabled };
