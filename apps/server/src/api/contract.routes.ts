import { completeContractSignature, prepareContractSignature } from '../flows/sign-contract';
import { contractPolicy } from '../modules/contract/contract.policy';
import {
  CONTRACT_STATUS,
  ContractDetailSchema,
  ContractEditSchema,
  ContractExtendSchema,
  ContractPageSchema,
  ContractQuerySchema,
  ContractSignCompleteSchema,
  ContractSignPrepareSchema,
  ContractUploadReviewSchema,
  ContractVoidSchema,
  MAX_UPLOAD_BYTES,
  MyPaperCopyPageSchema,
  PageQuerySchema,
  SignPrepareResultSchema,
  envelopeSchema,
  formatFen,
  formatTons,
  safeString,
} from '@coalx/shared';
import { z } from 'zod';
import { appError } from '../errors';
import { voidContract } from '../flows/void-contract';
import { ok } from '../lib/envelope';
import { fileHeaders } from '../lib/file-reply';
import { excelWorkbook, sendExcel } from '../lib/excel';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import {
  contractDetail,
  contractPdf,
  contractsForExport,
  editTerms,
  extendDeadline,
  listContracts,
  myPaperCopies,
  paperCopyFile,
  reviewPaperCopy,
  uploadPaperCopy,
} from '../modules/contract/contract.service';

const BASE = '/api/contract';
const IdParams = z.object({ id: z.coerce.number({ error: '合同编号无效' }).int().positive('合同编号无效').max(Number.MAX_SAFE_INTEGER) });
const UploadParams = IdParams.extend({ uploadId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const DealParams = z.object({ dealNo: safeString().regex(/^CJ\d{8,16}$/, '成交编号格式不正确') });

const PAPER_TYPES: Record<string, string> = { pdf: 'application/pdf', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' };

async function contractWorkbook(rows: Awaited<ReturnType<typeof contractsForExport>>): Promise<Buffer> {
  const columns = [
    { header: '合同编号', key: 'contractNo', width: 20 },
    { header: '成交编号', key: 'dealNo', width: 20 },
    { header: '卖方', key: 'sellerName', width: 30 },
    { header: '买方', key: 'buyerName', width: 30 },
    { header: '产品', key: 'productName', width: 18 },
    { header: '数量(吨)', key: 'quantity', width: 14 },
    { header: '单价(元/吨)', key: 'price', width: 14 },
    { header: '金额(元)', key: 'amount', width: 18 },
    { header: '状态', key: 'status', width: 10 },
    { header: '签署截止', key: 'signDeadline', width: 20 },
    { header: '生成时间', key: 'createdAt', width: 20 },
  ];
  return excelWorkbook(
    '合同列表',
    columns,
    rows.map((r) => ({
      ...r,
      quantity: formatTons(r.quantity, false),
      price: formatFen(r.price),
      amount: formatFen(r.amount),
      status: CONTRACT_STATUS[r.status as keyof typeof CONTRACT_STATUS] ?? r.status,
    })),
  );
}

/** Contracts: lists, detail, PDF, terms, signing, paper copies, the operator's rulings. */
export default async function contractRoutes(app: ZodApp) {
  const tags = ['contract'];
  app.get(
    `${BASE}/list`,
    { config: { permission: 'contract-list' }, schema: { tags, summary: '合同列表 (企业: 本企业的合同; 运营: 全部)', querystring: ContractQuerySchema, response: { 200: envelopeSchema(ContractPageSchema) } } },
    async (request) => ok(await listContracts(app.db, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/export`,
    { config: { permission: 'contract-list.export' }, schema: { tags, summary: '导出合同列表 (Excel)', querystring: ContractQuerySchema.omit({ pageNo: true, pageSize: true }) } },
    async (request, reply) => {
      const buffer = await contractWorkbook(await contractsForExport(app.db, requireActor(request), request.query));
      return sendExcel(reply, buffer, '合同列表.xlsx');
    },
  );

  app.get(
    `${BASE}/uploads/mine`,
    { config: { permission: 'contract-sign' }, schema: { tags, summary: '本企业提交的纸质合同 (分页)', querystring: PageQuerySchema, response: { 200: envelopeSchema(MyPaperCopyPageSchema) } } },
    async (request) => ok(await myPaperCopies(app.db, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/by-deal/:dealNo`,
    { config: { permission: 'contract-list' }, schema: { tags, summary: '按成交编号查看合同', params: DealParams, response: { 200: envelopeSchema(ContractDetailSchema) } } },
    async (request) => ok(await contractDetail(app.db, requireActor(request), { dealNo: request.params.dealNo })),
  );

  app.get(
    `${BASE}/:id`,
    { config: { permission: 'contract-list' }, schema: { tags, summary: '合同详情', params: IdParams, response: { 200: envelopeSchema(ContractDetailSchema) } } },
    async (request) => ok(await contractDetail(app.db, requireActor(request), { id: request.params.id })),
  );

  app.get(`${BASE}/:id/pdf`, { config: { permission: 'contract-list' }, schema: { tags, summary: '合同 PDF (已签署的为签章版)', params: IdParams } }, async (request, reply) => {
    const { pdf, fileName } = await contractPdf(app.db, app.storage, requireActor(request), request.params.id);
    return fileHeaders(reply, { contentType: 'application/pdf', fileName }).send(pdf);
  });

  app.put(
    `${BASE}/:id/terms`,
    { config: { audit: '修改合同条款', permission: contractPolicy.grantOf('actAsParty') }, schema: { tags, summary: '修改合同条款 (生效前; 清除已有签署)', params: IdParams, body: ContractEditSchema, response: { 200: envelopeSchema(ContractDetailSchema) } } },
    async (request) => ok(await editTerms(app.db, app.storage, app.clock, requireActor(request), request.params.id, request.body.terms), '合同条款已修改'),
  );

  app.post(
    `${BASE}/:id/sign/prepare`,
    { config: { permission: contractPolicy.grantOf('actAsParty') }, schema: { tags, summary: '签署合同第一步：返回须由证书密钥签名的签名属性', params: IdParams, body: ContractSignPrepareSchema, response: { 200: envelopeSchema(SignPrepareResultSchema) } } },
    async (request) => ok(await prepareContractSignature(app.db, app.storage, app.clock, app.signTrust, requireActor(request), request.params.id, request.body), '请使用数字证书签名'),
  );

  app.post(
    `${BASE}/:id/sign/complete`,
    { config: { audit: '签署合同', permission: contractPolicy.grantOf('actAsParty') }, schema: { tags, summary: '签署合同第二步：提交证书签名，写入合同 PDF', params: IdParams, body: ContractSignCompleteSchema, response: { 200: envelopeSchema(ContractDetailSchema) } } },
    async (request) => ok(await completeContractSignature(app.db, app.storage, app.clock, app.signTrust, requireActor(request), request.params.id, request.body), '签署成功'),
  );

  app.post(
    `${BASE}/:id/upload`,
    {
      config: { audit: '上传纸质合同', permission: contractPolicy.grantOf('actAsParty') },
      schema: { tags, summary: '上传双方签字盖章的纸质合同 (multipart: file，PDF/JPG/PNG)', params: IdParams, consumes: ['multipart/form-data'], response: { 200: envelopeSchema(ContractDetailSchema) } },
    },
    async (request) => {
      const actor = requireActor(request);
      if (!request.isMultipart()) throw appError('unsupported_media_type', '请以 multipart/form-data 上传文件');
      const part = await request.file({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } });
      if (!part || part.fieldname !== 'file') throw appError('file_missing', '请选择纸质合同文件');
      const data = await part.toBuffer();
      if (part.file.truncated) throw appError('file_too_large', `文件不能超过 ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
      const fileName = part.filename.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) || '纸质合同.pdf';
      return ok(await uploadPaperCopy(app.db, app.storage, app.clock, actor, request.params.id, { fileName, data }), '已提交，待交易中心审核');
    },
  );

  app.get(`${BASE}/:id/uploads/:uploadId/file`, { config: { permission: 'contract-list' }, schema: { tags, summary: '纸质合同文件', params: UploadParams } }, async (request, reply) => {
    const file = await paperCopyFile(app.db, app.storage, requireActor(request), request.params.id, request.params.uploadId);
    const ext = file.fileName.split('.').pop()?.toLowerCase() ?? '';
    // a download, sandboxed (lib/file-reply.ts): a paper copy's PDF never runs in the platform's origin
    return fileHeaders(reply, { contentType: PAPER_TYPES[ext] ?? file.contentType, fileName: file.fileName }).send(file.data);
  });

  app.post(
    `${BASE}/:id/uploads/:uploadId/review`,
    { config: { audit: '审核纸质合同', permission: contractPolicy.grantOf('rule') }, schema: { tags, summary: '运营审核纸质合同 (确认后合同生效)', params: UploadParams, body: ContractUploadReviewSchema, response: { 200: envelopeSchema(ContractDetailSchema) } } },
    async (request) => {
      const detail = await reviewPaperCopy(app.db, app.clock, requireActor(request), request.params.id, request.params.uploadId, request.body);
      return ok(detail, request.body.accept ? '已确认，合同生效' : '已驳回');
    },
  );

  app.post(
    `${BASE}/:id/void`,
    { config: { audit: '作废合同', permission: contractPolicy.grantOf('rule') }, schema: { tags, summary: '运营作废合同并认定违约方 (违约方履约保证金划转对方)', params: IdParams, body: ContractVoidSchema, response: { 200: envelopeSchema(ContractDetailSchema) } } },
    async (request) => ok(await voidContract(app.db, app.clock, requireActor(request), request.params.id, request.body), '合同已作废'),
  );

  app.post(
    `${BASE}/:id/extend`,
    { config: { audit: '延长合同签署期限', permission: contractPolicy.grantOf('rule') }, schema: { tags, summary: '运营延长逾期合同的签署期限 (仅一次)', params: IdParams, body: ContractExtendSchema, response: { 200: envelopeSchema(ContractDetailSchema) } } },
    async (request) => ok(await extendDeadline(app.db, app.clock, requireActor(request), request.params.id, request.body), '签署期限已延长'),
  );
}
