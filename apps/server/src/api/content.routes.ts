import {
  BannerManageSchema,
  BannerSaveSchema,
  BannerSchema,
  ContentDetailSchema,
  ContentIdSchema,
  ContentListQuerySchema,
  ContentManageSchema,
  ContentRecordSchema,
  ContentSaveSchema,
  envelopeSchema,
  pageSchema,
} from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { contentPolicy } from '../modules/content/content.policy';
import { contentDetail, deleteBanner, listBanners, listContents, manageContents, saveBanner, saveContent, setContentStatus } from '../modules/content/content.service';

export default async function contentRoutes(app: ZodApp) {
  const tags = ['content'];
  const operatorOnly = (request: Parameters<typeof requireActor>[0]) => {
    const actor = requireActor(request);
    contentPolicy.can(actor, 'manage');
    return actor;
  };

  app.get('/api/banner/list', { config: { permission: 'public' }, schema: { tags, summary: '首页轮播图', response: { 200: envelopeSchema(z.array(BannerSchema)) } } }, async () => {
    const list = await app.publicCache.get('banner:list', () => listBanners(app.db));
    return ok(list.map(({ id, title, listImage, detailPageURL }) => ({ id, title, listImage, detailPageURL })));
  });
  app.get('/api/banner/manageList', { config: { permission: 'operation-content' }, schema: { tags, summary: '轮播图管理列表 (运营)', response: { 200: envelopeSchema(z.array(BannerManageSchema)) } } }, async (request) => {
    operatorOnly(request);
    return ok(await listBanners(app.db, true));
  });
  app.post('/api/banner/save', { config: { permission: ['operation-content.add', 'operation-content.edit'], audit: '保存轮播图' }, schema: { tags, summary: '新增或修改轮播图 (运营)', body: BannerSaveSchema, response: { 200: envelopeSchema(BannerManageSchema) } } }, async (request) => {
    operatorOnly(request);
    const banner = await saveBanner(app.db, request.body);
    return ok(banner, '已保存');
  });
  app.post('/api/banner/delete', { config: { permission: 'operation-content.delete', audit: '删除轮播图' }, schema: { tags, summary: '删除轮播图 (运营)', body: ContentIdSchema, response: { 200: envelopeSchema(z.null()) } } }, async (request) => {
    operatorOnly(request);
    await deleteBanner(app.db, request.body.id);
    return ok(null, '已删除');
  });

  app.get('/api/content/list', { config: { permission: 'public' }, schema: { tags, summary: '公告列表 (type: 0 周报, 1 市场观察, a-d 规则文件)', querystring: ContentListQuerySchema, response: { 200: envelopeSchema(pageSchema(ContentRecordSchema)) } } }, async (request) => {
    const { type, pageNo, pageSize, title } = request.query;
    // a search is not cached: its key would be whatever a visitor types
    if (title) return ok(await listContents(app.db, app.clock.now(), { type, pageNo, pageSize, title }));
    return ok(await app.publicCache.get(`content:list:${type}:${pageNo}:${pageSize}`, () => listContents(app.db, app.clock.now(), { type, pageNo, pageSize })));
  });
  app.get('/api/content/detail', { config: { permission: 'public' }, schema: { tags, summary: '公告详情', querystring: z.object({ id: z.coerce.number().int().positive() }), response: { 200: envelopeSchema(ContentDetailSchema) } } }, async (request) =>
    ok(await contentDetail(app.db, app.clock.now(), request.query.id, contentPolicy.allows(request.actor, 'seeUnpublished'))),
  );
  app.get('/api/content/manageList', { config: { permission: 'operation-content' }, schema: { tags, summary: '公告管理列表 (运营)', querystring: z.object({ type: z.enum(['0', '1', 'a', 'b', 'c', 'd']).optional(), pageNo: z.coerce.number().int().min(1).default(1), pageSize: z.coerce.number().int().min(1).max(100).default(10) }), response: { 200: envelopeSchema(pageSchema(ContentManageSchema)) } } }, async (request) => {
    operatorOnly(request);
    return ok(await manageContents(app.db, request.query));
  });
  app.post('/api/content/save', { config: { permission: ['operation-content.add', 'operation-content.edit'], audit: '保存公告' }, schema: { tags, summary: '新增或修改公告 (运营; 正文在服务器端净化)', body: ContentSaveSchema, response: { 200: envelopeSchema(ContentManageSchema) } } }, async (request) => {
    const actor = operatorOnly(request);
    const saved = await saveContent(app.db, actor.userId, request.body);
    return ok(saved, '已保存');
  });
  for (const action of ['publish', 'unpublish'] as const) {
    app.post(`/api/content/${action}`, { config: { permission: 'operation-content.edit', audit: action === 'publish' ? '发布公告' : '下线公告' }, schema: { tags, summary: action === 'publish' ? '发布公告 (运营)' : '下线公告 (运营)', body: ContentIdSchema, response: { 200: envelopeSchema(ContentManageSchema) } } }, async (request) => {
      operatorOnly(request);
      const saved = await setContentStatus(app.db, request.body.id, action, app.clock.now());
      return ok(saved, action === 'publish' ? '已发布' : '已下线');
    });
  }
}
