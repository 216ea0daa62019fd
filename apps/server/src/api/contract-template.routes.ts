import {
  ContractPlaceholderListSchema,
  ContractTemplateKindQuerySchema,
  ContractTemplateListSchema,
  ContractTemplatePreviewResultSchema,
  ContractTemplatePreviewSchema,
  ContractTemplateSaveSchema,
  ContractTemplateSchema,
  envelopeSchema,
} from '@coalx/shared';
import { ok } from '../lib/envelope';
import { fileHeaders } from '../lib/file-reply';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { contractPolicy } from '../modules/contract/contract.policy';
import { listCurrentTemplates, placeholderList, previewTemplate, previewTemplatePdf, saveTemplate, templateHistory } from '../modules/contract/template.service';

const BASE = '/api/contract-template';

/** 模板配置: the admin edits the contract templates; the trading centre's operator may read them. */
export default async function contractTemplateRoutes(app: ZodApp) {
  const tags = ['contract-template'];

  app.get(`${BASE}/list`, { config: { permission: ['system-template', 'contract-list'] }, schema: { tags, summary: '各类合同的当前模板', response: { 200: envelopeSchema(ContractTemplateListSchema) } } }, async (request) => {
    contractPolicy.can(requireActor(request), 'readTemplates');
    return ok(await listCurrentTemplates(app.db));
  });

  app.get(
    `${BASE}/history`,
    { config: { permission: ['system-template', 'contract-list'] }, schema: { tags, summary: '一类合同模板的全部版本 (新版本在前)', querystring: ContractTemplateKindQuerySchema, response: { 200: envelopeSchema(ContractTemplateListSchema) } } },
    async (request) => {
      contractPolicy.can(requireActor(request), 'readTemplates');
      return ok(await templateHistory(app.db, request.query.kind));
    },
  );

  app.get(`${BASE}/placeholders`, { config: { permission: ['system-template', 'contract-list'] }, schema: { tags, summary: '模板可用的占位符', response: { 200: envelopeSchema(ContractPlaceholderListSchema) } } }, async (request) => {
    contractPolicy.can(requireActor(request), 'readTemplates');
    return ok(placeholderList());
  });

  app.post(
    `${BASE}/save`,
    { config: { audit: '保存合同模板', permission: 'system-template.edit' }, schema: { tags, summary: '保存为新版本 (拒绝未知占位符与未修改的正文)', body: ContractTemplateSaveSchema, response: { 200: envelopeSchema(ContractTemplateSchema) } } },
    async (request) => {
      const actor = requireActor(request);
      contractPolicy.can(actor, 'manageTemplates');
      const saved = await saveTemplate(app.db, actor, request.body);
      return ok(saved, `已保存为第 ${saved.version} 版`);
    },
  );

  app.post(
    `${BASE}/preview`,
    { config: { permission: ['system-template', 'contract-list'] }, schema: { tags, summary: '用示例成交预览模板正文', body: ContractTemplatePreviewSchema, response: { 200: envelopeSchema(ContractTemplatePreviewResultSchema) } } },
    async (request) => {
      contractPolicy.can(requireActor(request), 'readTemplates');
      return ok(previewTemplate(request.body));
    },
  );

  app.get(
    `${BASE}/preview.pdf`,
    { config: { permission: ['system-template', 'contract-list'] }, schema: { tags, summary: '当前模板套用示例成交生成的合同 PDF', querystring: ContractTemplateKindQuerySchema, produces: ['application/pdf'] } },
    async (request, reply) => {
      contractPolicy.can(requireActor(request), 'readTemplates');
      const { pdf, fileName } = await previewTemplatePdf(app.db, request.query.kind);
      return fileHeaders(reply, { contentType: 'application/pdf', fileName }).send(Buffer.from(pdf));
    },
  );
}
