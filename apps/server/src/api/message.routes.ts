import {
  MarkReadResultSchema,
  MarkReadSchema,
  MessageQuerySchema,
  MessageRecordSchema,
  MessageSettingsInputSchema,
  MessageSettingsSchema,
  UnreadCountSchema,
  envelopeSchema,
  pageSchema,
  type MessageSocketEvent,
} from '@coalx/shared';
import { ok } from '../lib/envelope';
import { publish } from '../lib/events';
import type { ZodApp } from '../lib/route-types';
import { getUserInfo } from '../modules/auth/auth.service';
import { resolveSession } from '../modules/auth/session.service';
import { messagePolicy } from '../modules/message/message.policy';
import { listMessages, markRead, saveSettings, settingsOf, unreadCountOf } from '../modules/message/message.service';
import { requireActor } from '../plugins/authenticate';
import { authTokenOf } from '../plugins/realtime';

/** 消息中心 (issue 28): each signed-in user's own messages, unread count and channel settings. */
export default async function messageRoutes(app: ZodApp) {
  const tags = ['message'];

  app.get(
    '/api/message/list',
    { config: { permission: 'self' }, schema: { tags, summary: '我的消息 (分页，最新在前；筛选：未读、类别、日期)', querystring: MessageQuerySchema, response: { 200: envelopeSchema(pageSchema(MessageRecordSchema)) } } },
    async (request) => {
      const userId = messagePolicy.can(requireActor(request), 'readOwn');
      return ok(await listMessages(app.db, userId, request.query));
    },
  );

  app.get(
    '/api/message/unreadCount',
    { config: { permission: 'self' }, schema: { tags, summary: '未读消息数 (其中紧急的条数)', response: { 200: envelopeSchema(UnreadCountSchema) } } },
    async (request) => {
      const userId = messagePolicy.can(requireActor(request), 'readOwn');
      return ok(await unreadCountOf(app.db, userId));
    },
  );

  app.post(
    '/api/message/read',
    { config: { permission: 'self' }, schema: { tags, summary: '标为已读 (ids: 所选消息; all: 全部)', body: MarkReadSchema, response: { 200: envelopeSchema(MarkReadResultSchema) } } },
    async (request) => {
      const userId = messagePolicy.can(requireActor(request), 'readOwn');
      const marked = await markRead(app.db, userId, request.body, app.clock.now());
      // the reader's other tabs (in any process) update their count
      if (marked > 0) await publish(app.db, 'message.read', { userId });
      return ok({ marked, unread: await unreadCountOf(app.db, userId) }, marked > 0 ? `已将 ${marked} 条消息标为已读` : '没有需要标记的未读消息');
    },
  );

  app.get(
    '/api/message/settings',
    { config: { permission: 'self' }, schema: { tags, summary: '通知设置：邮箱与各类消息的短信、邮件开关', response: { 200: envelopeSchema(MessageSettingsSchema) } } },
    async (request) => {
      const userId = messagePolicy.can(requireActor(request), 'readOwn');
      const { mobile } = await getUserInfo(app.db, userId);
      return ok(await settingsOf(app.db, userId, mobile ?? ''));
    },
  );

  app.post(
    '/api/message/settings',
    { config: { permission: 'self', audit: '修改通知设置' }, schema: { tags, summary: '保存通知设置', body: MessageSettingsInputSchema, response: { 200: envelopeSchema(MessageSettingsSchema) } } },
    async (request) => {
      const userId = messagePolicy.can(requireActor(request), 'editOwnSettings');
      await saveSettings(app.db, userId, request.body, app.clock.now());
      const { mobile } = await getUserInfo(app.db, userId);
      return ok(await settingsOf(app.db, userId, mobile ?? ''), '保存成功');
    },
  );

  // the per-user channel: the unread count on sign-in, then every change (a new message, a read in another tab)
  app.get(
    '/ws/message',
    {
      websocket: true,
      config: { permission: 'public' },
      schema: { tags, summary: 'WebSocket: 消息中心实时推送 (连接后第一条消息发送 {"type":"auth","token":"…"}；此后推送未读数与新消息)' },
    },
    async (socket) => {
      let userId: number | null = null;
      const send = (event: MessageSocketEvent) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(event));
      // an unsigned socket is closed after 10 s: this channel has nothing for visitors
      const unsigned = setTimeout(() => userId === null && socket.close(4401, 'sign in first'), 10_000);
      unsigned.unref();
      socket.once('message', (data, isBinary) => {
        const token = authTokenOf(data, isBinary);
        if (token === null) {
          send({ type: 'auth', ok: false });
          return socket.close(4401, 'not signed in');
        }
        resolveSession(app.db, app.clock, token)
          .then(async (actor) => {
            const signedIn = actor !== null && !actor.mustChangePassword;
            send({ type: 'auth', ok: signedIn });
            if (!signedIn || socket.readyState !== socket.OPEN) return socket.close(4401, 'not signed in');
            clearTimeout(unsigned);
            userId = actor.userId;
            app.notifications.channels.add(userId, socket);
            send({ type: 'unread', unread: await unreadCountOf(app.db, userId) });
          })
          .catch((err: unknown) => app.log.warn({ err }, 'message socket sign-in failed'));
      });
      socket.on('close', () => {
        clearTimeout(unsigned);
        if (userId !== null) app.notifications.channels.remove(userId, socket);
      });
    },
  );
}
