import { forbidden } from '../../errors';
import type { Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff, requireRole } from '../../lib/policy';

/** Banners and announcements: the trading centre's operators edit them; staff also read what is not published. */
export const contentPolicy = definePolicy({
  manage(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以管理内容');
  },
  seeUnpublished(actor: Actor) {
    if (!isPlatformStaff(actor)) throw forbidden('只有交易中心可以查看未发布的公告');
  },
});
