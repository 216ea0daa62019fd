import { getFundInfo } from '../queries/fund-info';
import {
  DepositInApplySchema,
  FundInfoSchema,
  JournalQuerySchema,
  PageQuerySchema,
  RejectSchema,
  ReviewIdSchema,
  SetPayPasswordSchema,
  TransferListQuerySchema,
  WithdrawApplySchema,
  envelopeSchema,
  safeString,
} from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import { sendExcel } from '../lib/excel';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { fundsPolicy } from '../modules/funds/funds.policy';
import {
  applyDepositIn,
  applyWithdrawal,
  confirmDepositIn,
  journalForExport,
  listJournal,
  listTradeDeposits,
  listTransfers,
  payWithdrawal,
  rejectDepositIn,
  rejectWithdrawal,
} from '../modules/funds/funds.service';
import { journalWorkbook } from '../modules/funds/journal-export';
import { payPasswordStatus, setPayPassword } from '../modules/funds/pay-auth';

const TransferSchema = z.object({
  id: z.number(),
  enterpriseName: safeString(),
  amount: z.number(),
  bankName: safeString(),
  accountNo: safeString(),
  transferDate: safeString().nullable(),
  voucherUrl: safeString().nullable(),
  remark: safeString(),
  status: safeString(),
  rejectReason: safeString().nullable(),
  createdAt: safeString(),
  reviewedAt: safeString().nullable(),
});
const TransferPageSchema = z.object({ records: z.array(TransferSchema), total: z.number(), current: z.number(), size: z.number() });
const JournalEntrySchema = z.object({
  id: z.number(),
  kind: safeString(),
  amount: z.number(),
  availableAfter: z.number(),
  frozenAfter: z.number(),
  refType: safeString(),
  refId: safeString(),
  remark: safeString(),
  createdAt: safeString(),
});
const TradeDepositSchema = z.object({
  id: z.number(),
  tradeKind: safeString(),
  tradeId: safeString(),
  refId: safeString(),
  amount: z.number(),
  status: safeString(),
  createdAt: safeString(),
  updatedAt: safeString(),
});
const pageOf = <T extends z.ZodType>(record: T) => z.object({ records: z.array(record), total: z.number(), current: z.number(), size: z.number() });
const IdResultSchema = z.object({ id: z.number(), status: safeString() });

export default async function fundsRoutes(app: ZodApp) {
  const tags = ['funds'];

  app.get('/api/fundinfo/getFundInfo', { config: { permission: ['financial', 'listingTrade', 'auctionTrade'] }, schema: { tags, summary: '资金账户余额 (分)', response: { 200: envelopeSchema(FundInfoSchema) } } }, async (request) => {
    const actor = requireActor(request);
    fundsPolicy.can(actor, 'useOwnAccount');
    return ok(await getFundInfo(app.db, actor));
  });

  app.get(
    '/api/deposit/getDepositBalance',
    { config: { permission: 'financial-assets' }, schema: { tags, summary: '按交易的保证金', querystring: PageQuerySchema, response: { 200: envelopeSchema(pageOf(TradeDepositSchema)) } } },
    async (request) => {
      const actor = requireActor(request);
      fundsPolicy.can(actor, 'useOwnAccount');
      return ok(await listTradeDeposits(app.db, actor, request.query));
    },
  );

  app.post(
    '/api/funds/depositIn/apply',
    { config: { audit: '入金申请', permission: 'financial-application.add' }, schema: { tags, summary: '入金申请 (银行转账登记)', body: DepositInApplySchema, response: { 200: envelopeSchema(IdResultSchema) } } },
    async (request) => {
      const actor = requireActor(request);
      fundsPolicy.can(actor, 'useOwnAccount');
      const row = await applyDepositIn(app.db, actor, request.body);
      return ok({ id: row.id, status: row.status }, '入金申请已提交，等待交易中心确认');
    },
  );

  app.get(
    '/api/funds/depositIn/list',
    { config: { permission: 'financial-application' }, schema: { tags, summary: '本企业入金申请', querystring: TransferListQuerySchema, response: { 200: envelopeSchema(TransferPageSchema) } } },
    async (request) => {
      const actor = requireActor(request);
      fundsPolicy.can(actor, 'useOwnAccount');
      return ok(await listTransfers(app.db, 'deposit_in', actor.enterpriseId, request.query));
    },
  );

  app.post(
    '/api/funds/withdraw/apply',
    { config: { audit: '出金申请', permission: 'financial-application.add' }, schema: { tags, summary: '出金申请 (立即冻结)', body: WithdrawApplySchema, response: { 200: envelopeSchema(IdResultSchema) } } },
    async (request) => {
      const actor = requireActor(request);
      fundsPolicy.can(actor, 'useOwnAccount');
      const row = await applyWithdrawal(app.db, app.clock, app.ukeyVerifier, actor, request.body);
      return ok({ id: row.id, status: row.status }, '出金申请已提交，金额已冻结');
    },
  );

  app.get(
    '/api/funds/withdraw/list',
    { config: { permission: 'financial-application' }, schema: { tags, summary: '本企业出金申请', querystring: TransferListQuerySchema, response: { 200: envelopeSchema(TransferPageSchema) } } },
    async (request) => {
      const actor = requireActor(request);
      fundsPolicy.can(actor, 'useOwnAccount');
      return ok(await listTransfers(app.db, 'withdrawal', actor.enterpriseId, request.query));
    },
  );

  app.get(
    '/api/funds/journal/list',
    { config: { permission: 'financial-payRecord' }, schema: { tags, summary: '支付记录 (资金流水)', querystring: JournalQuerySchema, response: { 200: envelopeSchema(pageOf(JournalEntrySchema)) } } },
    async (request) => {
      const actor = requireActor(request);
      fundsPolicy.can(actor, 'useOwnAccount');
      return ok(await listJournal(app.db, actor, request.query));
    },
  );

  app.get(
    '/api/funds/journal/export',
    { config: { permission: 'financial-payRecord.export' }, schema: { tags, summary: '导出支付记录 (Excel)', querystring: JournalQuerySchema.omit({ pageNo: true, pageSize: true }) } },
    async (request, reply) => {
      const actor = requireActor(request);
      fundsPolicy.can(actor, 'useOwnAccount');
      const buffer = await journalWorkbook(await journalForExport(app.db, actor, request.query));
      return sendExcel(reply, buffer, '支付记录.xlsx');
    },
  );

  app.get(
    '/api/funds/payPassword/status',
    { config: { permission: ['financial', 'listingTrade', 'auctionTrade', 'contract-sign'] }, schema: { tags, summary: '支付密码是否已设置', response: { 200: envelopeSchema(z.object({ isSet: z.boolean(), lockedUntil: safeString().nullable() })) } } },
    async (request) => {
      const actor = requireActor(request);
      fundsPolicy.can(actor, 'useOwnAccount');
      return ok(await payPasswordStatus(app.db, app.clock, actor.enterpriseId!));
    },
  );

  app.post(
    '/api/funds/payPassword/set',
    { config: { audit: '设置支付密码', permission: 'financial-assets.edit' }, schema: { tags, summary: '设置或修改支付密码 (企业管理员)', body: SetPayPasswordSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await setPayPassword(app.db, app.clock, requireActor(request), request.body);
      return ok(null, '支付密码已设置');
    },
  );

  // ----- the trading centre's queues -----
  for (const kind of ['depositIn', 'withdraw'] as const) {
    app.get(
      `/api/funds/admin/${kind}/list`,
      { config: { permission: 'operation-fundsAudit' }, schema: { tags, summary: kind === 'depositIn' ? '入金审核队列' : '出金审核队列', querystring: TransferListQuerySchema, response: { 200: envelopeSchema(TransferPageSchema) } } },
      async (request) => {
        const actor = requireActor(request);
        fundsPolicy.can(actor, 'reviewTransfers');
        return ok(await listTransfers(app.db, kind === 'depositIn' ? 'deposit_in' : 'withdrawal', null, request.query));
      },
    );
  }

  app.post('/api/funds/admin/depositIn/confirm', { config: { audit: '确认入金', permission: 'operation-fundsAudit.edit' }, schema: { tags, summary: '确认入金 (入账)', body: ReviewIdSchema, response: { 200: envelopeSchema(IdResultSchema) } } }, async (request) => {
    const actor = requireActor(request);
    fundsPolicy.can(actor, 'reviewTransfers');
    const row = await confirmDepositIn(app.db, app.clock, actor, request.body.id);
    return ok({ id: row.id, status: row.status }, '已确认入账');
  });

  app.post('/api/funds/admin/depositIn/reject', { config: { audit: '驳回入金', permission: 'operation-fundsAudit.edit' }, schema: { tags, summary: '驳回入金', body: RejectSchema, response: { 200: envelopeSchema(IdResultSchema) } } }, async (request) => {
    const actor = requireActor(request);
    fundsPolicy.can(actor, 'reviewTransfers');
    const row = await rejectDepositIn(app.db, app.clock, actor, request.body.id, request.body.reason);
    return ok({ id: row.id, status: row.status }, '已驳回');
  });

  app.post('/api/funds/admin/withdraw/pay', { config: { audit: '出金付款', permission: 'operation-fundsAudit.edit' }, schema: { tags, summary: '出金已付款', body: ReviewIdSchema, response: { 200: envelopeSchema(IdResultSchema) } } }, async (request) => {
    const actor = requireActor(request);
    fundsPolicy.can(actor, 'reviewTransfers');
    const row = await payWithdrawal(app.db, app.clock, actor, request.body.id);
    return ok({ id: row.id, status: row.status }, '已确认付款');
  });

  app.post('/api/funds/admin/withdraw/reject', { config: { audit: '驳回出金', permission: 'operation-fundsAudit.edit' }, schema: { tags, summary: '驳回出金 (解冻)', body: RejectSchema, response: { 200: envelopeSchema(IdResultSchema) } } }, async (request) => {
    const actor = requireActor(request);
    fundsPolicy.can(actor, 'reviewTransfers');
    const row = await rejectWithdrawal(app.db, app.clock, actor, request.body.id, request.body.reason);
    return ok({ id: row.id, status: row.status }, '已驳回，金额已解冻');
  });
}
