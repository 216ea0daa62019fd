import { MAX_UPLOAD_BYTES } from '@coalx/shared';
import type { FastifyRequest } from 'fastify';
import { AppError, appError } from '../errors';

/**
 * A body the multipart parser cannot read (no boundary, cut short) is the client's mistake: a 400, never a 500.
 * Refusals of our own and the plugin's limit errors pass through to the error handler unchanged.
 */
export function unreadableMultipart(err: unknown): unknown {
  if (err instanceof AppError || (err as { statusCode?: number }).statusCode) return err;
  return appError('validation_failed', '上传内容格式不正确，请重新选择文件上传');
}

/** The one file of a multipart body, sent as field `file` (other fields are ignored). */
export async function readFileField(request: FastifyRequest): Promise<{ filename: string; data: Buffer }> {
  if (!request.isMultipart()) throw appError('unsupported_media_type', '请以 multipart/form-data 上传文件');
  let upload: { filename: string; data: Buffer } | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5 } })) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file') throw appError('file_missing', '请以字段 file 上传文件');
      // PostgreSQL refuses the NUL byte in text: the name is kept without it
      upload = { filename: part.filename.replaceAll('\u0000', ''), data: await part.toBuffer() };
    }
  } catch (err) {
    throw unreadableMultipart(err);
  }
  if (!upload) throw appError('file_missing');
  return upload;
}
