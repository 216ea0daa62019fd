import { GatePassTicketSchema, GatePassViewSchema, UploadResultSchema, envelopeSchema, safeString } from '@coalx/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { appError } from '../errors';
import { ok } from '../lib/envelope';
import { readFileField } from '../lib/multipart';
import type { ZodApp } from '../lib/route-types';
import { gatePassKey, verifyGatePass, type GatePassClaim } from '../modules/delivery/gate-pass';
import { saveGatePassPhoto } from '../modules/files/files.service';
import { gatePassPhotoOwner, gatePassView, recordAtGate } from '../flows/record-at-gate';

declare module 'fastify' {
  interface FastifyRequest {
    /** A verified QR pass (issue 32): who acts on a gate-pass route, for the audit trail (plugins/audit-trail.ts). */
    gatePass?: GatePassClaim;
  }
}

const BASE = '/api/gate-pass';
const PassParams = z.object({ pass: safeString().max(120) });

/** Uses of passes per address in 10 minutes: a weighbridge records a truck every few minutes, not more. */
const PASS_USES_PER_WINDOW = 120;

/**
 * The weighbridge by QR code (issue 32): a clerk without an account, holding one truck's pass from its dispatch
 * note, sees that truck and records its one ticket with a photo. The pass is the permission: its signature is
 * checked before anything else runs, and each use is recorded in the audit trail with the pass's id and address.
 */
export default async function gatePassRoutes(app: ZodApp) {
  const tags = ['delivery'];
  const key = await gatePassKey(app.db);

  // runs before the audit trail's hook, so every use of a genuine pass gets its row (done or refused)
  const verifyPass = async (request: FastifyRequest) => {
    const claim = verifyGatePass(key, (request.params as { pass?: string }).pass ?? '');
    if (!claim) throw appError('gate_pass_invalid');
    request.gatePass = claim;
    // the row names the truck by its dispatch number (queries/audit-naming.ts)
    request.auditObject = { type: '派车单', id: claim.dispatchId };
  };
  const config = (audit: string) => ({
    permission: 'public' as const,
    audit,
    rateLimit: { max: PASS_USES_PER_WINDOW, timeWindow: '10 minutes', errorResponseBuilder: () => appError('too_many_requests', '操作过于频繁，请稍后再试') },
  });

  app.get(
    `${BASE}/:pass`,
    { onRequest: verifyPass, config: config('扫码查看派车单'), schema: { tags, summary: '过磅员扫派车单二维码 (无需账号): 本车信息与磅单', params: PassParams, response: { 200: envelopeSchema(GatePassViewSchema) } } },
    async (request) => ok(await gatePassView(app.db, app.clock, request.gatePass!)),
  );

  app.post(
    `${BASE}/:pass/photo`,
    { onRequest: verifyPass, config: config('扫码上传磅单照片'), schema: { tags, summary: '过磅员上传磅单照片 (multipart 字段 file, 仅图片)', params: PassParams, consumes: ['multipart/form-data'], response: { 200: envelopeSchema(UploadResultSchema) } } },
    async (request) => {
      const enterpriseId = await gatePassPhotoOwner(app.db, app.clock, request.gatePass!);
      return ok(await saveGatePassPhoto(app.db, app.storage, app.clock, enterpriseId, await readFileField(request)), '上传成功');
    },
  );

  app.post(
    `${BASE}/:pass/ticket`,
    { onRequest: verifyPass, config: config('扫码录入磅单'), schema: { tags, summary: '过磅员录入本车磅单 (装车或到货, 以二维码为准)', params: PassParams, body: GatePassTicketSchema, response: { 200: envelopeSchema(GatePassViewSchema) } } },
    async (request) => ok(await recordAtGate(app.db, app.clock, request.gatePass!, request.body), '磅单已录入'),
  );
}
