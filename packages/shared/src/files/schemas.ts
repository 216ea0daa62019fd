import { z } from 'zod';
import { safeString } from '../text';

/** Types accepted by upload, told by the file's first bytes (spec §5: .jpg .png .jpeg by default). */
export const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png'] as const;
export const UPLOAD_EXTENSIONS = [...IMAGE_EXTENSIONS, '.pdf'] as const;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const UploadResultSchema = z.object({
  url: safeString().describe('path under {api}/api/common/static/'),
  name: safeString(),
  size: z.number().int(),
  contentType: safeString(),
  visibility: z.enum(['public', 'private']),
});
export type UploadResult = z.infer<typeof UploadResultSchema>;

/** A private file's short-lived signed address (GET /api/common/file-link): for <img src> and download links. */
export const FileLinkSchema = z.object({
  url: safeString().describe('the file address with uid, sid, expires and signature; opens for this session only'),
  expiresAt: z.number().int().describe('epoch ms after which the link is refused'),
});
export type FileLink = z.infer<typeof FileLinkSchema>;
