import {
  MAX_UPLOAD_BYTES,
  PageQuerySchema,
  SIGN_REASON_MAX,
  SignCompleteSchema,
  SignedDocumentPageSchema,
  SignedDocumentSchema,
  SignPrepareResultSchema,
  SignVerifyResultSchema,
  envelopeSchema,
} from '@coalx/shared';
import type { FastifyRequest } from 'fastify';
import { appError } from '../errors';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { signPolicy } from '../modules/sign/sign.policy';
import { completeSigning, listSignedDocuments, ownSealSvg, prepareSigning, verifyDocument } from '../modules/sign/sign.service';

/** Reads one PDF and a few named text fields from a multipart request. */
async function readPdfForm(request: FastifyRequest, fields: string[]) {
  if (!request.isMultipart()) throw appError('unsupported_media_type', '请以 multipart/form-data 上传文件');
  let file: { fileName: string; data: Buffer } | null = null;
  const values: Record<string, string> = {};
  for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: fields.length } })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw appError('file_missing', '文件字段须名为 file');
      const data = await part.toBuffer();
      if (part.file.truncated) throw appError('file_too_large', `文件不能超过 ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
      file = { fileName: part.filename.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) || '文件.pdf', data };
    } else if (fields.includes(part.fieldname)) {
      values[part.fieldname] = String(part.value ?? '').replace(/\u0000/g, '').trim();
    }
  }
  if (!file) throw appError('file_missing', '请选择要上传的 PDF 文件');
  return { file, values };
}

const SIGN_BASE = '/api/sign';

export default async function signRoutes(app: ZodApp) {
  const tags = ['sign'];

  app.get(`${SIGN_BASE}/seal`, { config: { permission: 'ukey-sign' }, schema: { tags, summary: '本企业电子印章 (SVG，按登记名称与统一社会信用代码绘制)' } }, async (request, reply) => {
    const actor = signPolicy.can(requireActor(request), 'listOwn');
    reply.header('content-type', 'image/svg+xml; charset=utf-8');
    reply.header('cache-control', 'private, no-store');
    return reply.send(await ownSealSvg(app.db, actor));
  });

  app.post(
    `${SIGN_BASE}/prepare`,
    {
      config: { permission: 'ukey-sign.edit' }, schema: {
        tags,
        summary: '签章第一步：上传 PDF (multipart: file, deviceId, reason)，返回须由证书密钥签名的签名属性',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(SignPrepareResultSchema) },
      },
    },
    async (request) => {
      const actor = signPolicy.can(requireActor(request), 'sign');
      const { file, values } = await readPdfForm(request, ['deviceId', 'reason']);
      const deviceId = Number(values.deviceId);
      if (!Number.isSafeInteger(deviceId) || deviceId <= 0) throw appError('validation_failed', '请选择签章使用的数字证书');
      const reason = values.reason || '文件签章';
      if (reason.length > SIGN_REASON_MAX) throw appError('validation_failed', `签章事由不能超过 ${SIGN_REASON_MAX} 个字`);
      return ok(await prepareSigning(app.db, app.storage, app.clock, app.signTrust, actor, { ...file, deviceId, reason }), '请使用数字证书签名');
    },
  );

  app.post(
    `${SIGN_BASE}/complete`,
    { config: { permission: 'ukey-sign.edit', audit: '文件签章' }, schema: { tags, summary: '签章第二步：提交证书密钥的签名 (r||s)，生成已签章 PDF', body: SignCompleteSchema, response: { 200: envelopeSchema(SignedDocumentSchema) } } },
    async (request) => {
      const actor = signPolicy.can(requireActor(request), 'sign');
      return ok(await completeSigning(app.db, app.storage, app.clock, app.signTrust, actor, request.body), '签章成功');
    },
  );

  app.get(
    `${SIGN_BASE}/documents`,
    { config: { permission: 'ukey-sign' }, schema: { tags, summary: '本企业已签章文件 (分页)', querystring: PageQuerySchema, response: { 200: envelopeSchema(SignedDocumentPageSchema) } } },
    async (request) => {
      const actor = signPolicy.can(requireActor(request), 'listOwn');
      return ok(await listSignedDocuments(app.db, actor, request.query));
    },
  );

  app.post(
    `${SIGN_BASE}/verify`,
    {
      config: {
        permission: 'public',
        rateLimit: { max: 30, timeWindow: '1 minute', errorResponseBuilder: () => appError('too_many_requests', '验证过于频繁，请稍后再试') },
      },
      schema: {
        tags,
        summary: '公开验证：上传 PDF (multipart: file, 可选 number 文件/合同编号)，逐个核验签章',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(SignVerifyResultSchema) },
      },
    },
    async (request) => {
      const { file, values } = await readPdfForm(request, ['number']);
      const number = values.number?.slice(0, 40) || undefined;
      return ok(await verifyDocument(app.db, app.signTrust, app.verificationReference, { ...file, number }), '验证完成');
    },
  );
}
