import type { Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

/** The market's figures and daily reports are the trading centre's (the admin reads them too). */
export const statisticsPolicy = definePolicy(
  {
    read(actor: Actor) {
      requireRole(actor, ['operator', 'admin'], '只有交易中心可以查看运营统计');
    },
    make(actor: Actor) {
      requireRole(actor, ['operator'], '只有交易中心运营人员可以生成交易日报');
    },
  },
  { make: 'operation-dailyReport.add' },
);
