import { forbidden } from '../../errors';
import type { Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff } from '../../lib/policy';

export const filesPolicy = definePolicy({
  /** Public files appear on the public site: only the trading centre publishes them. */
  uploadPublic(actor: Actor) {
    if (!isPlatformStaff(actor)) throw forbidden('只有交易中心可以上传公开文件');
  },
  /** A private file: the trading centre, its uploader and its enterprise. */
  readPrivate(actor: Actor, file: { uploadedBy: number | null; ownerEnterpriseId: number | null }) {
    const mayRead = isPlatformStaff(actor) || actor.userId === file.uploadedBy || (file.ownerEnterpriseId !== null && file.ownerEnterpriseId === actor.enterpriseId);
    if (!mayRead) throw forbidden('无权查看该文件');
  },
});

/** A visitor registering uploads private files only (the public site's files come from the trading centre). */
export function visitorMayUpload(visibility: 'public' | 'private') {
  if (visibility === 'public') throw forbidden('只有交易中心可以上传公开文件');
}
