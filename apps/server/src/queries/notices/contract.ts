import { BREACH_RULINGS, CONTRACT_SIGNABLE_STATES, formatDateTime, formatTons, type BreachRuling } from '@coalx/shared';
import { and, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { contracts } from '../../db/schema/index';
import { contractPolicy } from '../../modules/contract/contract.policy';
import type { NoticePlan, NoticeRule, Reminder } from './types';
import { shortTime } from './text';

const SIGNERS = contractPolicy.grantOf('actAsParty') ?? 'contract-sign.edit';
const RULERS = contractPolicy.grantOf('rule') ?? 'contract-list.edit';

async function contractOf(tx: Tx, id: number) {
  const [row] = await tx.select().from(contracts).where(eq(contracts.id, id)).limit(1);
  return row ?? null;
}
type ContractRow = NonNullable<Awaited<ReturnType<typeof contractOf>>>;

/** Asks made stale by what happened since (a demo loaded at once, a dispatch after a long outage) are not made. */
const signable = (c: ContractRow) => (CONTRACT_SIGNABLE_STATES as readonly string[]).includes(c.status);

const linkOf = (c: ContractRow) => `/contract/info?id=${c.id}`;
/** 「合同 HT… （卖方 与 买方，5500大卡动力煤 1,000.00 吨）」 */
function described(c: ContractRow) {
  const goods = c.context.productName ? `，${c.context.productName}${c.context.quantityKg ? ` ${formatTons(c.context.quantityKg)}` : ''}` : '';
  return `合同 ${c.contractNo}（${c.context.seller.name} 与 ${c.context.buyer.name}${goods}）`;
}
function webhookData(c: ContractRow) {
  return {
    contractNo: c.contractNo,
    dealNo: c.context.dealNo || null,
    tradeNo: c.context.tradeNo || null,
    status: c.status,
    signDeadline: c.signDeadline.toISOString(),
    seller: c.context.seller.name,
    buyer: c.context.buyer.name,
  };
}
const parties = (c: ContractRow) => [c.sellerEnterpriseId, c.buyerEnterpriseId];

/** A generated contract: both parties sign it before the deadline (1 working day), or the operator rules a breach. */
const created: NoticeRule = async (tx, payload) => {
  const c = await contractOf(tx, Number(payload.id));
  if (!c) return null;
  if (!signable(c)) return { notices: [], webhook: { type: 'contract.created', enterpriseIds: parties(c), data: webhookData(c) } };
  return {
    notices: [
      {
        to: { enterpriseIds: parties(c), grant: SIGNERS },
        kind: 'contract.to_sign',
        category: 'contract',
        title: '待签署合同',
        content: `${described(c)}已生成，请在 ${formatDateTime(c.signDeadline)} 前使用数字证书完成签署；逾期未签，交易中心将认定违约并处理履约保证金。`,
        dueAt: c.signDeadline,
        link: linkOf(c),
        urgent: true,
        sms: `合同${c.contractNo}待签署，请于${shortTime(c.signDeadline)}前签署`,
      },
    ],
    webhook: { type: 'contract.created', enterpriseIds: parties(c), data: webhookData(c) },
  };
};

/** One side signed: the other side is told it is their turn. */
function signedBy(side: 'seller' | 'buyer'): NoticeRule {
  return async (tx, payload) => {
    const c = await contractOf(tx, Number(payload.id));
    if (!c) return null;
    if (!signable(c)) return { notices: [], webhook: { type: 'contract.signed', enterpriseIds: parties(c), data: { ...webhookData(c), signedBy: side } } };
    const other = side === 'seller' ? c.buyerEnterpriseId : c.sellerEnterpriseId;
    const who = side === 'seller' ? `卖方 ${c.context.seller.name}` : `买方 ${c.context.buyer.name}`;
    return {
      notices: [
        {
          to: { enterpriseIds: [other], grant: SIGNERS },
          kind: 'contract.other_signed',
          category: 'contract',
          title: '对方已签署合同',
          content: `${who}已签署${described(c)}，请在 ${formatDateTime(c.signDeadline)} 前完成签署，签署后合同生效。`,
          dueAt: c.signDeadline,
          link: linkOf(c),
          urgent: true,
          sms: `对方已签合同${c.contractNo}，请于${shortTime(c.signDeadline)}前签署`,
        },
      ],
      webhook: { type: 'contract.signed', enterpriseIds: parties(c), data: { ...webhookData(c), signedBy: side } },
    };
  };
}

const effective: NoticeRule = async (tx, payload) => {
  const c = await contractOf(tx, Number(payload.id));
  if (!c) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: parties(c), grant: SIGNERS },
        kind: 'contract.effective',
        category: 'contract',
        title: '合同已生效',
        content: `${described(c)}双方已签署，合同已生效，请按合同约定付款、发货。`,
        link: linkOf(c),
      },
    ],
    webhook: { type: 'contract.effective', enterpriseIds: parties(c), data: webhookData(c) },
  };
};

/** Past the deadline: the parties are told, and the operator has a ruling to make. */
const overdue: NoticeRule = async (tx, payload) => {
  const c = await contractOf(tx, Number(payload.id));
  if (!c || c.status !== 'overdue') return null;
  return {
    notices: [
      {
        to: { enterpriseIds: parties(c), grant: SIGNERS },
        kind: 'contract.overdue',
        category: 'contract',
        title: '合同逾期未签',
        content: `${described(c)}已超过签署截止时间 ${formatDateTime(c.signDeadline)}，交易中心将作废合同并认定违约方，或延期一次。如有特殊情况请立即联系交易中心。`,
        link: linkOf(c),
        urgent: true,
        sms: `合同${c.contractNo}已逾期未签，请联系交易中心`,
      },
      {
        to: { staffGrant: RULERS },
        kind: 'todo.contract_overdue',
        category: 'todo',
        title: '逾期未签合同待处理',
        content: `${described(c)}已逾期未签，请作废并认定违约方，或延期一次。`,
        link: '/contract/list?status=overdue',
      },
    ],
  };
};

const voided: NoticeRule = async (tx, payload) => {
  const c = await contractOf(tx, Number(payload.id));
  if (!c) return null;
  const ruling = c.breachBy ? BREACH_RULINGS[c.breachBy as BreachRuling] ?? c.breachBy : '';
  return {
    notices: [
      {
        to: { enterpriseIds: parties(c), grant: SIGNERS },
        kind: 'contract.voided',
        category: 'contract',
        title: '合同已作废',
        content: `${described(c)}已被交易中心作废${ruling ? `，认定：${ruling}` : ''}${c.voidReason ? `（原因：${c.voidReason}）` : ''}。违约方的履约保证金按规则处理，详情见合同页面。`,
        link: linkOf(c),
        urgent: true,
        sms: `合同${c.contractNo}已作废${ruling ? `，${ruling}` : ''}`,
      },
    ],
    webhook: { type: 'contract.voided', enterpriseIds: parties(c), data: { ...webhookData(c), breachBy: c.breachBy } },
  };
};

/** Scheduled: 4 hours before the deadline, the sides that have not signed yet. */
export const deadlineSoon: NoticeRule = async (tx, payload) => {
  const c = await contractOf(tx, Number(payload.id));
  if (!c || !signable(c)) return null;
  const unsigned = [c.sellerSignedAt ? null : c.sellerEnterpriseId, c.buyerSignedAt ? null : c.buyerEnterpriseId].filter((id): id is number => id !== null);
  if (unsigned.length === 0) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: unsigned, grant: SIGNERS },
        kind: 'contract.deadline_soon',
        category: 'contract',
        title: '合同即将逾期',
        content: `${described(c)}将于 ${formatDateTime(c.signDeadline)} 截止签署，您尚未签署，请尽快完成；逾期将被认定违约。`,
        dueAt: c.signDeadline,
        link: linkOf(c),
        urgent: true,
        sms: `合同${c.contractNo}将于${shortTime(c.signDeadline)}截止签署，请尽快签署`,
      },
    ],
  };
};

export const CONTRACT_RULES: Record<string, NoticeRule> = {
  'contract.created': created,
  'contract.seller_signed': signedBy('seller'),
  'contract.buyer_signed': signedBy('buyer'),
  'contract.effective': effective,
  'contract.overdue': overdue,
  'contract.voided': voided,
  'contract.deadline_soon': deadlineSoon,
};

const HOUR_MS = 3600_000;

/** 4 hours before a signing deadline, for every contract still waiting for a signature. */
export const CONTRACT_REMINDERS: Reminder[] = [
  {
    name: 'contract.deadline_soon',
    async due(db, now) {
      const rows = await db
        .select({ id: contracts.id, signDeadline: contracts.signDeadline })
        .from(contracts)
        .where(and(inArray(contracts.status, [...CONTRACT_SIGNABLE_STATES]), gt(contracts.signDeadline, now), lte(contracts.signDeadline, new Date(now.getTime() + 4 * HOUR_MS))));
      return rows.map((r) => ({ key: `contract.deadline_soon:${r.id}:${r.signDeadline.toISOString()}`, payload: { id: r.id } }));
    },
  },
];

export type { NoticePlan };
