import {
  AttachmentSchema,
  AuditIdSchema,
  AuditRejectSchema,
  ChangeRequestQuerySchema,
  ChangeRequestSchema,
  CheckExistResultSchema,
  EnterpriseAuditQuerySchema,
  EnterpriseChangeApplySchema,
  EnterpriseCheckExistSchema,
  EnterpriseDetailSchema,
  EnterpriseInfoSchema,
  EnterpriseRegisterSchema,
  EnterpriseResubmitSchema,
  EnterpriseUpdateSchema,
  MemberAddResultSchema,
  MemberAddSchema,
  MemberDisableSchema,
  MemberSchema,
  RegisterResultSchema,
  RegistrantCredentialsSchema,
  envelopeSchema,
  pageSchema,
} from '@coalx/shared';
import { z } from 'zod';
import { appError } from '../errors';
import { checkExist, registerEnterprise, rejectedRegistration, resubmitRegistration } from '../flows/register-enterprise';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { addMember, listMembers, setMemberDisabled } from '../modules/auth/accounts.service';
import { approveEnterprise, rejectEnterprise } from '../flows/audit-registration';
import { approveChange, rejectChange } from '../modules/enterprise/audit.service';
import { changeRequestView, getEnterpriseDetail, listChanges, listForAudit } from '../queries/enterprise-detail';
import { enterprisePolicy } from '../modules/enterprise/enterprise.policy';
import { applyChange, getEnterpriseInfo, listAttachments, updateContact } from '../modules/enterprise/enterprise.service';

const visitorLimit = (max: number, message: string) => ({
  max,
  timeWindow: '1 minute',
  errorResponseBuilder: () => appError('too_many_requests', message),
});

export default async function enterpriseRoutes(app: ZodApp) {
  const tags = ['enterprise'];

  app.get(
    '/sys/enterprise/info',
    { config: { permission: 'self' }, schema: { tags, summary: '当前用户所属企业 (平台人员为 null)', response: { 200: envelopeSchema(EnterpriseInfoSchema) } } },
    async (request) => ok(await getEnterpriseInfo(app.db, requireActor(request).enterpriseId)),
  );

  // ---- registration (visitors) ----
  app.post(
    '/sys/enterprise/checkExist',
    {
      config: { permission: 'public', rateLimit: visitorLimit(60, '查询过于频繁，请稍后再试') },
      schema: {
        tags,
        summary: '注册前检查企业名称、统一社会信用代码或用户名是否已被使用',
        body: EnterpriseCheckExistSchema,
        response: { 200: envelopeSchema(CheckExistResultSchema) },
      },
    },
    async (request) => {
      const result = await checkExist(app.db, request.body);
      return ok(result, result.message);
    },
  );

  app.post(
    '/sys/enterprise/add',
    {
      config: { permission: 'public', rateLimit: visitorLimit(10, '注册提交过于频繁，请稍后再试') },
      schema: {
        tags,
        summary: '企业注册 (提交后待交易中心审核)',
        body: EnterpriseRegisterSchema,
        response: { 200: envelopeSchema(RegisterResultSchema) },
      },
    },
    async (request) => ok(await registerEnterprise(app.db, app.clock, request.body), '注册申请已提交，请等待交易中心审核'),
  );

  app.post(
    '/sys/enterprise/rejectedInfo',
    {
      config: { permission: 'public', rateLimit: visitorLimit(10, '尝试过于频繁，请稍后再试') },
      schema: {
        tags,
        summary: '审核被驳回的注册资料 (凭注册时的用户名和密码)',
        body: RegistrantCredentialsSchema,
        response: { 200: envelopeSchema(EnterpriseDetailSchema) },
      },
    },
    async (request) => ok(await rejectedRegistration(app.db, app.clock, request.body.username, request.body.password)),
  );

  app.post(
    '/sys/enterprise/resubmit',
    {
      config: { permission: 'public', rateLimit: visitorLimit(10, '提交过于频繁，请稍后再试') },
      schema: {
        tags,
        summary: '修改被驳回的注册资料并重新提交审核',
        body: EnterpriseResubmitSchema,
        response: { 200: envelopeSchema(RegisterResultSchema) },
      },
    },
    async (request) => ok(await resubmitRegistration(app.db, app.clock, request.body), '资料已重新提交，请等待交易中心审核'),
  );

  // ---- the enterprise's own data ----
  app.get(
    '/sys/enterprise/detail',
    { config: { permission: ['companyInfo', 'financial-application'] }, schema: { tags, summary: '本企业详细资料、审核状态、附件与待审核变更', response: { 200: envelopeSchema(EnterpriseDetailSchema) } } },
    async (request) => ok(await getEnterpriseDetail(app.db, enterprisePolicy.can(requireActor(request), 'readOwn'))),
  );

  app.get(
    '/sys/enterprise/attachmentList',
    { config: { permission: 'companyInfo' }, schema: { tags, summary: '本企业附件 (营业执照、授权委托书)', response: { 200: envelopeSchema(z.array(AttachmentSchema)) } } },
    async (request) => ok(await listAttachments(app.db, enterprisePolicy.can(requireActor(request), 'readOwn'))),
  );

  app.put(
    '/sys/enterprise/update',
    {
      config: { permission: 'companyInfo.edit', audit: '修改企业信息' },
      schema: {
        tags,
        summary: '修改联系人与办公地址 (企业管理员，立即生效)',
        body: EnterpriseUpdateSchema,
        response: { 200: envelopeSchema(EnterpriseDetailSchema) },
      },
    },
    async (request) => {
      const enterpriseId = enterprisePolicy.can(requireActor(request), 'manageOwn');
      await updateContact(app.db, app.clock, enterpriseId, request.body);
      return ok(await getEnterpriseDetail(app.db, enterpriseId), '企业资料已更新');
    },
  );

  app.post(
    '/sys/enterprise/change/apply',
    {
      config: { permission: 'companyInfo.edit', audit: '申请资料变更' },
      schema: {
        tags,
        summary: '申请变更法定信息 (名称、信用代码、法定代表人、结算账户)，交易中心审核后生效',
        body: EnterpriseChangeApplySchema,
        response: { 200: envelopeSchema(EnterpriseDetailSchema) },
      },
    },
    async (request) => {
      const actor = requireActor(request);
      const enterpriseId = enterprisePolicy.can(actor, 'manageOwn');
      await applyChange(app.db, app.clock, { userId: actor.userId, enterpriseId }, request.body);
      return ok(await getEnterpriseDetail(app.db, enterpriseId), '变更申请已提交，审核通过前仍按原资料交易');
    },
  );

  // ---- members ----
  app.get(
    '/sys/enterprise/member/list',
    { config: { permission: 'companyInfo' }, schema: { tags, summary: '本企业成员', response: { 200: envelopeSchema(z.array(MemberSchema)) } } },
    async (request) => ok(await listMembers(app.db, enterprisePolicy.can(requireActor(request), 'manageOwn'))),
  );

  app.post(
    '/sys/enterprise/member/add',
    {
      config: { permission: 'companyInfo.add', audit: '新增交易员' },
      schema: {
        tags,
        summary: '添加交易员 (返回一次性初始密码，首次登录须修改)',
        body: MemberAddSchema,
        response: { 200: envelopeSchema(MemberAddResultSchema) },
      },
    },
    async (request) => {
      const enterpriseId = enterprisePolicy.can(requireActor(request), 'manageOwn');
      return ok(await addMember(app.db, enterpriseId, request.body), '交易员已添加');
    },
  );

  app.post(
    '/sys/enterprise/member/disable',
    { config: { permission: 'companyInfo.edit', audit: '停用或启用交易员' }, schema: { tags, summary: '停用或启用交易员', body: MemberDisableSchema, response: { 200: envelopeSchema(MemberSchema) } } },
    async (request) => {
      const actor = requireActor(request);
      const enterpriseId = enterprisePolicy.can(actor, 'manageOwn');
      const member = await setMemberDisabled(app.db, app.clock, enterpriseId, actor.userId, request.body.id, request.body.disabled);
      return ok(member, request.body.disabled ? '账号已停用' : '账号已启用');
    },
  );

  // ---- the trading centre's audit ----
  app.get(
    '/sys/enterprise/audit/list',
    {
      config: { permission: 'operation-enterpriseAudit' }, schema: {
        tags,
        summary: '企业审核列表 (交易中心运营)',
        querystring: EnterpriseAuditQuerySchema,
        response: { 200: envelopeSchema(pageSchema(EnterpriseDetailSchema)) },
      },
    },
    async (request) => {
      enterprisePolicy.can(requireActor(request), 'audit');
      return ok(await listForAudit(app.db, request.query));
    },
  );

  app.post(
    '/sys/enterprise/audit/approve',
    { config: { permission: 'operation-enterpriseAudit.edit', audit: '企业审核通过' }, schema: { tags, summary: '审核通过企业注册', body: AuditIdSchema, response: { 200: envelopeSchema(EnterpriseDetailSchema) } } },
    async (request) => {
      enterprisePolicy.can(requireActor(request), 'audit');
      return ok(await approveEnterprise(app.db, app.clock, request.body.id), '审核通过');
    },
  );

  app.post(
    '/sys/enterprise/audit/reject',
    { config: { permission: 'operation-enterpriseAudit.edit', audit: '企业审核驳回' }, schema: { tags, summary: '驳回企业注册 (须填写原因)', body: AuditRejectSchema, response: { 200: envelopeSchema(EnterpriseDetailSchema) } } },
    async (request) => {
      enterprisePolicy.can(requireActor(request), 'audit');
      return ok(await rejectEnterprise(app.db, app.clock, request.body.id, request.body.reason), '已驳回');
    },
  );

  app.get(
    '/sys/enterprise/change/list',
    {
      config: { permission: 'operation-enterpriseAudit' }, schema: {
        tags,
        summary: '企业资料变更申请列表 (交易中心运营)',
        querystring: ChangeRequestQuerySchema,
        response: { 200: envelopeSchema(pageSchema(ChangeRequestSchema)) },
      },
    },
    async (request) => {
      enterprisePolicy.can(requireActor(request), 'audit');
      return ok(await listChanges(app.db, request.query));
    },
  );

  app.post(
    '/sys/enterprise/change/approve',
    { config: { permission: 'operation-enterpriseAudit.edit', audit: '资料变更通过' }, schema: { tags, summary: '通过资料变更', body: AuditIdSchema, response: { 200: envelopeSchema(ChangeRequestSchema) } } },
    async (request) => {
      const actor = requireActor(request);
      enterprisePolicy.can(actor, 'audit');
      return ok(await changeRequestView(app.db, await approveChange(app.db, app.clock, actor.userId, request.body.id)), '变更已生效');
    },
  );

  app.post(
    '/sys/enterprise/change/reject',
    { config: { permission: 'operation-enterpriseAudit.edit', audit: '资料变更驳回' }, schema: { tags, summary: '驳回资料变更 (须填写原因)', body: AuditRejectSchema, response: { 200: envelopeSchema(ChangeRequestSchema) } } },
    async (request) => {
      const actor = requireActor(request);
      enterprisePolicy.can(actor, 'audit');
      return ok(await changeRequestView(app.db, await rejectChange(app.db, app.clock, actor.userId, request.body.id, request.body.reason)), '已驳回');
    },
  );
}
