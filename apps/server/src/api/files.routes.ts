import { FileLinkSchema, MAX_UPLOAD_BYTES, UploadResultSchema, envelopeSchema, safeString } from '@coalx/shared';
import { z } from 'zod';
import { appError } from '../errors';
import { ok } from '../lib/envelope';
import { isSignablePath } from '../lib/file-links';
import { unreadableMultipart } from '../lib/multipart';
import { fileHeaders } from '../lib/file-reply';
import { requireActor } from '../plugins/authenticate';
import type { ZodApp } from '../lib/route-types';
import { ANONYMOUS_UPLOADS_PER_WINDOW, openFile, saveRegistrationUpload, saveUpload } from '../modules/files/files.service';

/** A signed link's parameters (lib/file-links.ts); checked by the authentication plugin, declared here for the schema. */
const FileLinkQuerySchema = z.object({
  uid: safeString().max(20).optional(),
  sid: safeString().max(20).optional(),
  expires: safeString().max(20).optional(),
  signature: safeString().max(100).optional(),
});

export default async function filesRoutes(app: ZodApp) {
  app.post(
    '/api/common/upload',
    {
      config: { audit: '上传文件',
        // visitors may upload only registration attachments (scene=register), and only so many per address
        permission: 'public',
        rateLimit: {
          max: ANONYMOUS_UPLOADS_PER_WINDOW,
          timeWindow: '10 minutes',
          allowList: (request) => request.actor !== null,
          errorResponseBuilder: () => appError('too_many_requests', '上传过于频繁，请稍后再试'),
        },
      },
      schema: {
        tags: ['files'],
        summary: '上传文件 (multipart 字段 file; 可选字段 visibility=public|private; 未登录的企业注册附件带 scene=register，仅限图片)',
        consumes: ['multipart/form-data'],
        response: {
          200: z.object({ success: z.boolean(), code: z.number(), message: safeString(), result: UploadResultSchema, timestamp: z.number() }),
        },
      },
    },
    async (request) => {
      const actor = request.actor;
      if (!request.isMultipart()) throw appError('unsupported_media_type', '请以 multipart/form-data 上传文件');
      let upload: { filename: string; data: Buffer } | null = null;
      let visibility: 'public' | 'private' = 'private';
      let scene = '';
      try {
        for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5 } })) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file') throw appError('file_missing', '请以字段 file 上传文件');
            const data = await part.toBuffer();
            // PostgreSQL refuses the NUL byte in text: the name is kept without it
            upload = { filename: part.filename.replaceAll('\u0000', ''), data };
          } else if (part.fieldname === 'visibility') {
            if (part.value !== 'public' && part.value !== 'private') throw appError('validation_failed', '文件可见范围只能是公开或私有');
            visibility = part.value;
          } else if (part.fieldname === 'scene') {
            if (part.value !== 'register') throw appError('validation_failed', '上传场景不正确');
            scene = part.value;
          }
        }
      } catch (err) {
        throw unreadableMultipart(err);
      }
      if (!actor && scene !== 'register') throw appError('not_signed_in');
      if (!upload) throw appError('file_missing');
      const result = actor
        ? await saveUpload(app.db, app.storage, app.clock, actor, { ...upload, visibility })
        : await saveRegistrationUpload(app.db, app.storage, app.clock, { ...upload, visibility });
      return { success: true, code: 0, message: '上传成功', result, timestamp: Date.now() };
    },
  );

  app.get(
    '/api/common/static/*',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['files'],
        summary: '读取文件 (私有文件须带 X-Access-Token 头，或用 /api/common/file-link 签发的 5 分钟链接)',
        params: z.object({ '*': safeString().max(200) }),
        querystring: FileLinkQuerySchema,
      },
    },
    async (request, reply) => {
      const { file, stream } = await openFile(app.db, app.storage, request.actor, request.params['*']);
      // a download, sandboxed, public or private (lib/file-reply.ts): <img src> still shows images, the web reads PDFs with pdf.js
      const cacheControl = file.visibility === 'public' ? 'public, max-age=86400' : 'private, no-store';
      return fileHeaders(reply, { contentType: file.contentType, fileName: file.originalName, size: file.size, cacheControl }).send(stream);
    },
  );

  app.get(
    '/api/common/file-link',
    {
      config: { permission: 'self' },
      schema: {
        tags: ['files'],
        summary: '签发私有文件的短期链接 (5 分钟，仅限本人本次登录；用于 <img src> 与下载链接，地址中不带 token)',
        querystring: z.object({ path: safeString().min(1).max(300).describe('文件地址，如 /trade-api/api/common/static/2026/01/01/….png') }),
        response: { 200: envelopeSchema(FileLinkSchema) },
      },
    },
    async (request) => {
      const actor = requireActor(request);
      const { path } = request.query;
      if (!isSignablePath(path)) throw appError('validation_failed', '只能为文件地址签发链接');
      return ok(app.fileLinks.sign(path, actor, app.clock.now()));
    },
  );
}
