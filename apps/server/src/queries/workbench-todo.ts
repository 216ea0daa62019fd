import { ROLES, type Workbench, type WorkbenchTodo } from '@coalx/shared';
import { and, desc, eq, gt, inArray, isNull, lt, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import {
  auctionEnrolments,
  auctions,
  contracts,
  contractUploads,
  depositInApplications,
  dispatches,
  enterpriseChangeRequests,
  enterpriseSuspensions,
  enterprises,
  invoices,
  marketIndex,
  qualityReports,
  settlementStatements,
  fundAccounts,
  fundsReconciliations,
  listingSubscriptions,
  listings,
  orders,
  switches,
  users,
  withdrawals,
} from '../db/schema/index';
import { shanghaiDayStart } from '../lib/shanghai-time';
import { isoWeekOf } from '../modules/market-index/market-index.service';
import { pastDeliveryWindow } from '../modules/order/order-query.service';
import { driverCounts } from '../modules/driver/driver.service';
import { startingToday } from '../modules/auction/auction.service';
import { longTermTodoCounts } from '../modules/long-term/long-term-query.service';
import type { WorkbenchScope } from '../modules/workbench/workbench.policy';

/**
 * The 工作台首页 of each role: counts of what waits for it, read across domains (a read model, it writes
 * nothing). Counts only: each to-do's path opens its page filtered to exactly the items counted (the page reads the
 * filter from the URL and hands it to its list API), so the count and the list's total are one rule.
 */
export async function workbenchFor(db: Db, now: Date, scope: WorkbenchScope): Promise<Workbench> {
  if (scope.kind === 'operator') return operatorWorkbench(db, now);
  if (scope.kind === 'admin') return adminWorkbench(db, now);
  return enterpriseWorkbench(db, now, scope.enterpriseId);
}

const LONG_TERM_FLAGGED = (count: number): WorkbenchTodo => ({
  key: 'longTermFlagged',
  title: '履约率低于预警线的长协',
  count,
  path: '/longTermDeal?flagged=1',
  hint: '已结束月份的签收量低于计划量的预警比例，请双方协商调整后续月度计划',
});

async function countOf(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
  return Number(row?.n ?? 0);
}

/** The differences the latest funds reconciliation (资金总览) found: 0 when it balanced or none was run. */
async function latestReconciliationDifferences(db: Db): Promise<number> {
  const [latest] = await db.select({ figures: fundsReconciliations.figures }).from(fundsReconciliations).orderBy(desc(fundsReconciliations.day)).limit(1);
  const differences = (latest?.figures as { differences?: unknown[] } | undefined)?.differences;
  return differences?.length ?? 0;
}

async function operatorWorkbench(db: Db, now: Date): Promise<Workbench> {
  const week = isoWeekOf(now);
  const [
    registrations, changes, listingAudits, auctionAudits, depositsIn, withdrawalsOut, overdueContracts, paperCopies, driverQueue, overdueOrders, disputes,
    statementDisputes, labDisputes, thisWeekIndex, lateOrders, suspensionsEnding, fundsDifferences,
  ] = await Promise.all([
    countOf(db, enterprises, eq(enterprises.auditStatus, 'pending')),
    countOf(db, enterpriseChangeRequests, eq(enterpriseChangeRequests.status, 'pending')),
    countOf(db, listings, eq(listings.status, 'submitted')),
    countOf(db, auctions, eq(auctions.status, 'submitted')),
    countOf(db, depositInApplications, eq(depositInApplications.status, 'pending')),
    countOf(db, withdrawals, eq(withdrawals.status, 'pending')),
    countOf(db, contracts, eq(contracts.status, 'overdue')),
    // contracts with a paper copy under review (the list shows contracts, one upload under review at a time)
    countOf(db, contracts, inArray(contracts.id, db.select({ id: contractUploads.contractId }).from(contractUploads).where(eq(contractUploads.status, 'submitted')))),
    driverCounts(db, null),
    // no automatic termination: the operator decides on each order unpaid past its deadline
    countOf(db, orders, and(eq(orders.status, 'unpaid'), lt(orders.paymentDeadline, now))),
    countOf(db, dispatches, eq(dispatches.status, 'disputed')),
    countOf(db, settlementStatements, eq(settlementStatements.status, 'disputed')),
    // orders with a disputed lab report: the order list is where the operator reads both sides' reports
    countOf(db, orders, inArray(orders.id, db.selectDistinct({ id: qualityReports.orderId }).from(qualityReports).where(eq(qualityReports.status, 'disputed')))),
    countOf(db, marketIndex, and(eq(marketIndex.currentYear, week.year), eq(marketIndex.currentTerm, week.term))),
    countOf(db, orders, pastDeliveryWindow(now)),
    countOf(
      db,
      enterpriseSuspensions,
      // in force now and ending before tomorrow: what 企业名录 lists under ?tradingState=suspended&endsToday=1
      and(eq(enterpriseSuspensions.status, 'active'), gt(enterpriseSuspensions.endsAt, now), lt(enterpriseSuspensions.endsAt, shanghaiDayStart(now, 1))),
    ),
    latestReconciliationDifferences(db),
  ]);
  const todos: WorkbenchTodo[] = [
    { key: 'enterpriseAudit', title: '待审核企业注册', count: registrations, path: '/operation/enterpriseAudit?auditStatus=pending', hint: '新注册企业通过审核后才能登录交易' },
    { key: 'enterpriseChange', title: '待审核企业变更', count: changes, path: '/operation/enterpriseAudit?tab=change&status=pending', hint: '名称、信用代码、法人、银行账户的变更申请' },
    { key: 'listingAudit', title: '待审核挂牌', count: listingAudits, path: '/operation/tradeAudit?tab=listing&status=submitted', hint: '审核通过后按挂牌时间开放摘牌' },
    { key: 'auctionAudit', title: '待审核竞价', count: auctionAudits, path: '/operation/tradeAudit?tab=auction&status=submitted', hint: '审核通过后开放报名' },
    { key: 'depositIn', title: '待确认入金', count: depositsIn, path: '/operation/fundsAudit?tab=depositIn&status=pending', hint: '核对银行回单后确认入账' },
    { key: 'withdrawal', title: '待处理出金', count: withdrawalsOut, path: '/operation/fundsAudit?tab=withdraw&status=pending', hint: '金额已冻结，付款后确认或驳回解冻' },
    { key: 'overdueContracts', title: '逾期未签合同', count: overdueContracts, path: '/contract/list?status=overdue', hint: '作废并认定违约方，或延期一次' },
    { key: 'paperContracts', title: '待审核纸质合同', count: paperCopies, path: '/contract/list?paper=submitted', hint: '与平台生成的合同文本比对后确认或驳回' },
    { key: 'driverAudit', title: '待审核司机', count: driverQueue.pending, path: '/logistics/driverAudit?status=pending', hint: '核对身份证、驾驶证、行驶证照片，通过后方可派车' },
    { key: 'overdueOrders', title: '逾期未付款订单', count: overdueOrders, path: '/order/list?status=unpaid&overdue=1', hint: '买方超过付款期限未支付货款，可联系买方或终止订单' },
    { key: 'lateOrders', title: '超过交收期的订单', count: lateOrders, path: '/order/list?late=1', hint: '交收期已结束仍未发完货，联系双方确认履约或终止订单' },
    { key: 'disputesToRule', title: '待裁定签收异议', count: disputes, path: '/settlement/signFor?status=disputed', hint: '买方对到货车辆提出异议，核对双方磅单与说明后裁定' },
    { key: 'statementDisputes', title: '待裁定结算异议', count: statementDisputes, path: '/settlement/balance?status=disputed', hint: '买方对结算单提出异议，核对结算数量与质量扣款后维持或退回' },
    { key: 'labReportDisputes', title: '化验单有异议的订单', count: labDisputes, path: '/order/list?labReport=disputed', hint: '一方对化验结果提出异议，可安排第三方复检' },
    {
      key: 'indexUnpublished',
      title: `本周指数未发布（${week.year}年第${week.term}期）`,
      count: thisWeekIndex > 0 ? 0 : 1,
      path: '/operation/marketIndex',
      hint: '按本周动力煤 5500 成交计算建议值，核对后发布',
    },
    {
      key: 'suspensionsEndingToday',
      title: '今日到期的暂停交易',
      count: suspensionsEnding,
      path: '/operation/enterprises?tradingState=suspended&endsToday=1',
      hint: '暂停期今日结束，到期后企业恢复交易',
    },
  ];
  if (fundsDifferences > 0) {
    todos.push({ key: 'fundsDifferences', title: '资金对账有差异', count: fundsDifferences, path: '/operation/fundsOverview', hint: '最近一次资金对账的账户余额与入金、出金或流水不符，逐项核查后重新对账' });
  }
  const longTerm = await longTermTodoCounts(db, now, null);
  if (longTerm.flagged > 0) todos.push(LONG_TERM_FLAGGED(longTerm.flagged));
  return { heading: ROLES.operator, todos, money: [] };
}

async function adminWorkbench(db: Db, now: Date): Promise<Workbench> {
  const [locked, disabled, switchesOn] = await Promise.all([
    countOf(db, users, gt(users.lockedUntil, now)),
    countOf(db, users, eq(users.disabled, true)),
    countOf(db, switches, eq(switches.content, '1')),
  ]);
  const todos: WorkbenchTodo[] = [
    { key: 'lockedAccounts', title: '锁定中的账号', count: locked, path: '/system/user', hint: '密码连续错误 5 次，15 分钟后自动解锁' },
    { key: 'disabledAccounts', title: '已停用账号', count: disabled, path: '/system/user', hint: '停用的账号不能登录' },
    { key: 'switchesOn', title: '已开启的系统开关', count: switchesOn, path: '/system/switch', hint: '支付密码、数字证书等资金安全开关' },
  ];
  return { heading: ROLES.admin, todos, money: [] };
}

async function enterpriseWorkbench(db: Db, now: Date, enterpriseId: number): Promise<Workbench> {
  const [enterprise] = await db.select({ name: enterprises.organName }).from(enterprises).where(eq(enterprises.id, enterpriseId));
  const [account] = await db
    .select({ available: fundAccounts.available, frozen: fundAccounts.frozen })
    .from(fundAccounts)
    .where(eq(fundAccounts.enterpriseId, enterpriseId));

  const [toConfirm] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(listingSubscriptions)
    .innerJoin(listings, eq(listings.id, listingSubscriptions.listingId))
    .where(and(eq(listings.enterpriseId, enterpriseId), eq(listingSubscriptions.status, 'pending')));
  const [myAwaiting] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(listingSubscriptions)
    .where(and(eq(listingSubscriptions.enterpriseId, enterpriseId), eq(listingSubscriptions.status, 'pending')));
  // auctions that start bidding today: those the enterprise enrolled in, and those it published
  const [[enrolledToday], [publishedToday]] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(auctionEnrolments)
      .innerJoin(auctions, eq(auctions.id, auctionEnrolments.auctionId))
      .where(and(eq(auctionEnrolments.enterpriseId, enterpriseId), eq(auctionEnrolments.status, 'enrolled'), startingToday(now))),
    db.select({ n: sql<number>`count(*)::int` }).from(auctions).where(and(eq(auctions.enterpriseId, enterpriseId), startingToday(now))),
  ]);
  const [depositsIn, withdrawalsOut, contractsToSign, myDrivers, ordersToPay, trucksToSign, disputesToAnswer, statementsToConfirm, invoicesToConfirm, labReportsToConfirm] = await Promise.all([
    countOf(db, depositInApplications, and(eq(depositInApplications.enterpriseId, enterpriseId), eq(depositInApplications.status, 'pending'))),
    countOf(db, withdrawals, and(eq(withdrawals.enterpriseId, enterpriseId), eq(withdrawals.status, 'pending'))),
    // contracts waiting for this enterprise's signature (the same rule as 合同上传与签署)
    countOf(
      db,
      contracts,
      and(
        inArray(contracts.status, ['pending', 'seller_signed', 'buyer_signed']),
        or(
          and(eq(contracts.sellerEnterpriseId, enterpriseId), isNull(contracts.sellerSignedAt)),
          and(eq(contracts.buyerEnterpriseId, enterpriseId), isNull(contracts.buyerSignedAt)),
        ),
        // a paper copy under review waits for the trading centre, not for a signature
        notInArray(contracts.id, db.select({ id: contractUploads.contractId }).from(contractUploads).where(eq(contractUploads.status, 'submitted'))),
      ),
    ),
    driverCounts(db, enterpriseId),
    countOf(db, orders, and(eq(orders.buyerEnterpriseId, enterpriseId), eq(orders.status, 'unpaid'))),
    countOf(db, dispatches, and(eq(dispatches.status, 'arrived'), eq(dispatches.buyerEnterpriseId, enterpriseId))),
    countOf(db, dispatches, and(eq(dispatches.status, 'disputed'), isNull(dispatches.sellerAnswer), eq(dispatches.sellerEnterpriseId, enterpriseId))),
    // the buyer confirms statements and invoices
    countOf(db, settlementStatements, and(eq(settlementStatements.buyerEnterpriseId, enterpriseId), eq(settlementStatements.status, 'pending'))),
    countOf(db, invoices, and(eq(invoices.buyerEnterpriseId, enterpriseId), eq(invoices.status, 'pending'))),
    // orders of mine with a lab report the other side submitted, waiting for my answer
    countOf(
      db,
      orders,
      and(
        or(eq(orders.sellerEnterpriseId, enterpriseId), eq(orders.buyerEnterpriseId, enterpriseId)),
        inArray(orders.id, db.selectDistinct({ id: qualityReports.orderId }).from(qualityReports).where(and(eq(qualityReports.status, 'submitted'), ne(qualityReports.enterpriseId, enterpriseId)))),
      ),
    ),
  ]);

  const todos: WorkbenchTodo[] = [
    { key: 'subscriptionsToConfirm', title: '待确认摘牌', count: Number(toConfirm?.n ?? 0), path: '/listingTrade/confirm?status=pending', hint: '对方已冻结保证金，等待本企业确认成交或拒绝' },
    { key: 'subscriptionsAwaiting', title: '等待对方确认的摘牌', count: Number(myAwaiting?.n ?? 0), path: '/listingTrade/subscribe?status=pending', hint: '挂牌方确认后成交，拒绝则解冻保证金' },
    { key: 'contractsToSign', title: '待签署合同', count: contractsToSign, path: '/contract/sign?scope=mine', hint: '成交后 1 个工作日内双方签署，逾期将由交易中心认定违约' },
    { key: 'ordersToPay', title: '待付款订单', count: ordersToPay, path: '/settlement/payment?tab=due&side=buyer', hint: '合同生效后在付款期限内支付预付款，资金冻结托管至结算' },
    { key: 'trucksToSign', title: '待签收车辆', count: trucksToSign, path: '/settlement/signFor?status=arrived', hint: '核对到货磅单后签收或提出异议，逾期未处理自动视为签收' },
    { key: 'disputesToAnswer', title: '待答复的签收异议', count: disputesToAnswer, path: '/settlement/signFor?status=disputed&answer=pending', hint: '买方对到货提出异议，请答复说明，交易中心据此裁定' },
    { key: 'auctionsToday', title: '今日开始的竞价', count: Number(enrolledToday?.n ?? 0), path: '/auctionTrade/sign?startsToday=1', hint: '本企业已报名、今日开始出价的竞价' },
    { key: 'myAuctionsToday', title: '今日开始的本企业竞价', count: Number(publishedToday?.n ?? 0), path: '/auctionTrade/query?startsToday=1', hint: '本企业发布、今日开始出价的竞价' },
    { key: 'statementsToConfirm', title: '待确认结算单', count: statementsToConfirm, path: '/settlement/balance?status=pending&side=buyer', hint: '核对结算数量、质量扣款与应付金额后确认，或提出异议' },
    { key: 'invoicesToConfirm', title: '待确认发票', count: invoicesToConfirm, path: '/invoice/list?status=pending&side=buyer', hint: '收到卖方开具的发票后确认收票' },
    { key: 'labReportsToConfirm', title: '待确认化验单的订单', count: labReportsToConfirm, path: '/order/list?labReport=toConfirm', hint: '对方提交了化验单，请在订单物流中确认或提出异议' },
    { key: 'depositsPending', title: '处理中的入金', count: depositsIn, path: '/financial/application?tab=depositIn&status=pending', hint: '等待交易中心核对回单后入账' },
    { key: 'withdrawalsPending', title: '处理中的出金', count: withdrawalsOut, path: '/financial/application?tab=withdraw&status=pending', hint: '金额已冻结，等待交易中心付款' },
  ];
  // 长协 items only when there is one: most enterprises trade spot only
  const longTerm = await longTermTodoCounts(db, now, enterpriseId);
  if (longTerm.applications > 0) {
    todos.push({ key: 'longTermApplications', title: '待处理的长协申请', count: longTerm.applications, path: '/longTermDeal', hint: '买方申请了本企业发布的长协，接受一家后生成框架合同' });
  }
  if (longTerm.callOffs > 0) {
    todos.push({ key: 'longTermCallOffs', title: '待确认的月度调运', count: longTerm.callOffs, path: '/longTermDeal', hint: '对方发起了本月调运，确认后生成成交与月度合同' });
  }
  if (longTerm.flagged > 0) todos.push(LONG_TERM_FLAGGED(longTerm.flagged));
  // shown only when there is something to fix: most enterprises never have a rejected driver
  if (myDrivers.rejected > 0) {
    todos.push({ key: 'rejectedDrivers', title: '被驳回的司机', count: myDrivers.rejected, path: '/logistics/transport?tab=drivers&status=rejected', hint: '按驳回原因修改司机信息后重新提交审核' });
  }
  return {
    heading: enterprise?.name ?? '',
    todos,
    money: [
      { key: 'available', title: '可用资金', amount: account?.available ?? 0, path: '/financial/assets' },
      { key: 'frozen', title: '冻结资金', amount: account?.frozen ?? 0, path: '/financial/assets' },
    ],
  };
}
