import type { ProColumns } from '@ant-design/pro-components';
import { Badge, Tooltip } from 'antd';
import { Link } from 'react-router';
import {
  AUCTION_STATE_LABELS,
  AuctionState,
  ENROLMENT_STATUS,
  formatFen,
  formatPrice,
  formatTons,
  type AuctionStateCode,
  type AuctionView,
} from '@coalx/shared';
import type { ExcelColumn } from '@/components/ExportExcel';
import type { RowDetail } from '@/components/RowDetails';
import type { EnrolmentView } from '@/services/auction';
import { AUCTION_STATE_ENUM, AUCTION_STATUS, AUCTION_TYPE_TEXT, resultText } from '@/lib/auction';
import { AuctionStateTag } from '@/components/auction/AuctionParts';
import { enumOf } from '@/lib/pro-table';

/** Columns the workspace auction tables share, and their Excel twins. */

const BADGE: Record<string, 'default' | 'processing' | 'success' | 'error' | 'warning'> = {
  draft: 'default',
  submitted: 'processing',
  approved: 'success',
  rejected: 'error',
  enrolled: 'processing',
  won: 'success',
  released: 'default',
};

export const AUCTION_TYPE_ENUM = enumOf(AUCTION_TYPE_TEXT);

export function AuctionStatusBadge({ status, reason }: { status: string; reason?: string | null }) {
  const badge = <Badge status={BADGE[status] ?? 'default'} text={AUCTION_STATUS[status] ?? status} />;
  return reason ? <Tooltip title={`驳回原因：${reason}`}>{badge}</Tooltip> : badge;
}

export const auctionLink = (tradeId: string) => <Link to={`/biddingDetails?tradeId=${encodeURIComponent(tradeId)}`}>{tradeId}</Link>;
const num = (text: string) => <span className="coalx-num">{text}</span>;
const stateText = (a: Pick<AuctionView, 'hangState' | 'result'>) =>
  `${AUCTION_STATE_LABELS[a.hangState as AuctionStateCode] ?? ''}${a.hangState === AuctionState.ended && a.result ? ` · ${resultText(a.result)}` : ''}`;

/**
 * The auction tables (我的竞价, 竞价结果, 竞价审核与监控): number, product, one 状态 (the audit state, once approved
 * the auction's own), prices, quantity and deposit at widths that keep every number whole at 1440 px; type, counts
 * and times open under the row (auctionDetails). Type, audit and auction state stay searchable.
 */
export const auctionColumns: ProColumns<AuctionView>[] = [
  { title: '交易编号', dataIndex: 'tradeId', width: 150, render: (_, r) => auctionLink(r.tradeId) },
  { title: '交易类型', dataIndex: 'tradeType', hideInTable: true, valueType: 'select', valueEnum: AUCTION_TYPE_ENUM },
  { title: '产品名称', dataIndex: 'productName', width: 100, search: false, ellipsis: true },
  { title: '审核状态', dataIndex: 'status', hideInTable: true, valueType: 'select', valueEnum: enumOf(AUCTION_STATUS) },
  { title: '竞价状态', dataIndex: 'hangState', hideInTable: true, valueType: 'select', valueEnum: AUCTION_STATE_ENUM },
  {
    title: '状态',
    dataIndex: 'state',
    width: 120,
    search: false,
    render: (_, r) => (r.status === 'approved' ? <AuctionStateTag state={r.hangState} result={r.result} /> : <AuctionStatusBadge status={r.status} reason={r.rejectReason} />),
  },
  { title: '起拍价/基价', dataIndex: 'startPrice', search: false, align: 'right', width: 136, render: (_, r) => num(formatPrice(r.startPrice)) },
  { title: '当前/成交价', dataIndex: 'bestPrice', search: false, align: 'right', width: 136, render: (_, r) => (r.bestPrice === null ? '-' : <span className="coalx-price">{formatPrice(r.bestPrice)}</span>) },
  { title: '数量', dataIndex: 'quantity', search: false, align: 'right', width: 124, render: (_, r) => num(formatTons(r.quantity)) },
  { title: '保证金 (元)', dataIndex: 'deposit', search: false, align: 'right', width: 120, render: (_, r) => num(formatFen(r.deposit)) },
];

export const auctionDetails = (a: AuctionView): RowDetail[] => [
  { label: '交易类型', value: AUCTION_TYPE_TEXT[a.tradeType] },
  { label: '报名 / 出价', value: `${a.enrolCount} 家 / ${a.bidCount} 次` },
  { label: '竞价时间', value: `${a.bidDateStart} 至 ${a.bidDateEnd}` },
];

export const auctionExcel: ExcelColumn<AuctionView>[] = [
  { title: '交易编号', value: (r) => r.tradeId, width: 18 },
  { title: '交易类型', value: (r) => AUCTION_TYPE_TEXT[r.tradeType] },
  { title: '产品名称', value: (r) => r.productName, width: 16 },
  { title: '发布企业', value: (r) => r.enterpriseName, width: 24 },
  { title: '起拍价/基价(元/吨)', value: (r) => formatFen(r.startPrice) },
  { title: '当前/成交价(元/吨)', value: (r) => (r.bestPrice === null ? '' : formatFen(r.bestPrice)) },
  { title: '数量(吨)', value: (r) => formatTons(r.quantity, false) },
  { title: '保证金(元)', value: (r) => formatFen(r.deposit) },
  { title: '报名家数', value: (r) => r.enrolCount },
  { title: '出价次数', value: (r) => r.bidCount },
  { title: '审核状态', value: (r) => AUCTION_STATUS[r.status] ?? r.status },
  { title: '竞价状态', value: (r) => (r.status === 'approved' ? stateText(r) : '-') },
  { title: '报名截止', value: (r) => r.enrolDeadline, width: 20 },
  { title: '竞价开始', value: (r) => r.bidDateStart, width: 20 },
  { title: '竞价结束', value: (r) => r.currentEnd, width: 20 },
];

/** 竞价报名: the deposit and both states whole at 1440 px; type and enrolment time open under the row. */
export const enrolmentColumns: ProColumns<EnrolmentView>[] = [
  { title: '交易编号', dataIndex: 'tradeId', width: 150, render: (_, r) => auctionLink(r.tradeId) },
  { title: '产品名称', dataIndex: 'productName', width: 110, search: false, ellipsis: true },
  { title: '竞价代号', dataIndex: 'bidder', width: 100, search: false },
  { title: '保证金 (元)', dataIndex: 'deposit', search: false, align: 'right', width: 130, render: (_, r) => num(formatFen(r.deposit)) },
  {
    title: '报名状态',
    dataIndex: 'status',
    width: 110,
    search: false,
    render: (_, r) => <Badge status={BADGE[r.status] ?? 'default'} text={ENROLMENT_STATUS[r.status as keyof typeof ENROLMENT_STATUS] ?? r.status} />,
  },
  { title: '竞价状态', dataIndex: 'hangState', width: 110, search: false, render: (_, r) => <AuctionStateTag state={r.hangState} /> },
];

export const enrolmentDetails = (r: EnrolmentView): RowDetail[] => [
  { label: '交易类型', value: AUCTION_TYPE_TEXT[r.tradeType] },
  { label: '报名时间', value: r.createdAt },
];

export const enrolmentExcel: ExcelColumn<EnrolmentView>[] = [
  { title: '交易编号', value: (r) => r.tradeId, width: 18 },
  { title: '交易类型', value: (r) => AUCTION_TYPE_TEXT[r.tradeType] },
  { title: '产品名称', value: (r) => r.productName, width: 16 },
  { title: '竞价代号', value: (r) => r.bidder },
  { title: '保证金(元)', value: (r) => formatFen(r.deposit) },
  { title: '报名状态', value: (r) => ENROLMENT_STATUS[r.status as keyof typeof ENROLMENT_STATUS] ?? r.status },
  { title: '竞价状态', value: (r) => AUCTION_STATE_LABELS[r.hangState as AuctionStateCode] ?? '' },
  { title: '报名时间', value: (r) => r.createdAt, width: 20 },
];
