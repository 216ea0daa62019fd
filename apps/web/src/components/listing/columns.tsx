import type { ProColumns } from '@ant-design/pro-components';
import { Badge, Tooltip } from 'antd';
import { Link } from 'react-router';
import {
  formatFen,
  formatPrice,
  formatTons,
  HANG_STATE_LABELS,
  LISTING_STATUS,
  SUBSCRIPTION_STATUS,
  type DealView,
  type HangStateCode,
  type ListingView,
  type SubscriptionView,
} from '@coalx/shared';
import type { ExcelColumn } from '@/components/ExportExcel';
import type { RowDetail } from '@/components/RowDetails';
import { enumOf } from '@/lib/pro-table';
import { TRADE_TYPE_TEXT } from '@/lib/listing';
import { HangStateTag } from '@/components/listing/StateParts';
import '@/components/TradeDetail/trade.css';

/** Columns the workspace listing tables share, and their Excel twins. */

const STATUS_BADGE: Record<string, 'default' | 'processing' | 'success' | 'error' | 'warning'> = {
  draft: 'default',
  submitted: 'processing',
  approved: 'success',
  rejected: 'error',
  pending: 'warning',
  confirmed: 'success',
  declined: 'default',
};

export function ListingStatusBadge({ status, reason }: { status: string; reason?: string | null }) {
  const badge = <Badge status={STATUS_BADGE[status] ?? 'default'} text={LISTING_STATUS[status as keyof typeof LISTING_STATUS] ?? status} />;
  return reason ? <Tooltip title={`驳回原因：${reason}`}>{badge}</Tooltip> : badge;
}

export function SubscriptionStatusBadge({ status, reason }: { status: string; reason?: string | null }) {
  const badge = <Badge status={STATUS_BADGE[status] ?? 'default'} text={SUBSCRIPTION_STATUS[status as keyof typeof SUBSCRIPTION_STATUS] ?? status} />;
  return reason ? <Tooltip title={`拒绝原因：${reason}`}>{badge}</Tooltip> : badge;
}

export const tradeLink = (tradeId: string) => <Link to={`/listingSalesDetails?tradeId=${encodeURIComponent(tradeId)}`}>{tradeId}</Link>;
const num = (text: string) => <span className="coalx-num">{text}</span>;
const money = (fen: number) => <span className="coalx-num">{formatFen(fen)}</span>;

export const TRADE_TYPE_ENUM = enumOf(TRADE_TYPE_TEXT);
export const HANG_STATE_ENUM = enumOf(HANG_STATE_LABELS);

/**
 * The listing tables (我的挂牌, 挂牌审核, 挂牌结果): number, product, one 状态 (the audit state, once approved the
 * market state), price and quantities at widths that keep every number whole at 1440 px; type, times and delivery
 * place open under the row (listingDetails). Type, audit and market state stay searchable.
 */
export const listingColumns: ProColumns<ListingView>[] = [
  { title: '交易编号', dataIndex: 'tradeId', width: 150, render: (_, r) => tradeLink(r.tradeId) },
  { title: '交易类型', dataIndex: 'tradeType', hideInTable: true, valueType: 'select', valueEnum: TRADE_TYPE_ENUM },
  { title: '产品名称', dataIndex: 'productName', width: 100, search: false, ellipsis: true },
  { title: '审核状态', dataIndex: 'status', hideInTable: true, valueType: 'select', valueEnum: enumOf(LISTING_STATUS) },
  { title: '挂牌状态', dataIndex: 'hangState', hideInTable: true, valueType: 'select', valueEnum: HANG_STATE_ENUM },
  {
    title: '状态',
    dataIndex: 'state',
    width: 100,
    search: false,
    render: (_, r) => (r.status === 'approved' ? <HangStateTag state={r.hangState} /> : <ListingStatusBadge status={r.status} reason={r.rejectReason} />),
  },
  { title: '价格', dataIndex: 'price', search: false, align: 'right', width: 136, render: (_, r) => num(formatPrice(r.price)) },
  { title: '挂牌数量', dataIndex: 'quantity', search: false, align: 'right', width: 124, render: (_, r) => num(formatTons(r.quantity)) },
  { title: '已摘数量', dataIndex: 'subscribedQuantity', search: false, align: 'right', width: 124, render: (_, r) => num(formatTons(r.subscribedQuantity)) },
];

export const listingDetails = (r: ListingView): RowDetail[] => [
  { label: '交易类型', value: TRADE_TYPE_TEXT[r.tradeType] },
  { label: '挂牌时间', value: `${r.listedDateStart} 至 ${r.listedDateEnd}` },
  { label: '交收地点', value: `${r.deliveryProvince}${r.deliveryCity}${r.deliveryDistrict}${r.deliveryPlace}` },
];

export const listingExcel: ExcelColumn<ListingView>[] = [
  { title: '交易编号', value: (r) => r.tradeId, width: 18 },
  { title: '交易类型', value: (r) => TRADE_TYPE_TEXT[r.tradeType] },
  { title: '产品名称', value: (r) => r.productName, width: 16 },
  { title: '挂牌企业', value: (r) => r.enterpriseName, width: 24 },
  { title: '价格(元/吨)', value: (r) => formatFen(r.price) },
  { title: '挂牌数量(吨)', value: (r) => formatTons(r.quantity, false) },
  { title: '已摘数量(吨)', value: (r) => formatTons(r.subscribedQuantity, false) },
  { title: '剩余数量(吨)', value: (r) => formatTons(r.remainingQuantity, false) },
  { title: '审核状态', value: (r) => LISTING_STATUS[r.status as keyof typeof LISTING_STATUS] ?? r.status },
  { title: '挂牌状态', value: (r) => (r.status === 'approved' ? (HANG_STATE_LABELS[r.hangState as HangStateCode] ?? '') : '-') },
  { title: '挂牌开始', value: (r) => r.listedDateStart, width: 20 },
  { title: '挂牌结束', value: (r) => r.listedDateEnd, width: 20 },
  { title: '交收地点', value: (r) => `${r.deliveryProvince}${r.deliveryCity}${r.deliveryDistrict}${r.deliveryPlace}`, width: 30 },
];

/**
 * The subscription tables (我的摘牌, 摘牌确认): what a trader decides on, at widths that hold every number whole
 * at 1440 px; the counterparty, serial number and times open under the row (subscriptionDetails).
 */
export const subscriptionColumns: ProColumns<SubscriptionView>[] = [
  { title: '交易编号', dataIndex: 'tradeId', width: 150, render: (_, r) => tradeLink(r.tradeId) },
  { title: '产品名称', dataIndex: 'productName', width: 110, search: false, ellipsis: true },
  {
    title: '状态',
    dataIndex: 'status',
    width: 96,
    valueType: 'select',
    valueEnum: enumOf(SUBSCRIPTION_STATUS),
    render: (_, r) => <SubscriptionStatusBadge status={r.status} reason={r.declineReason} />,
  },
  { title: '价格', dataIndex: 'price', search: false, align: 'right', width: 136, render: (_, r) => num(formatPrice(r.price)) },
  { title: '摘牌数量', dataIndex: 'quantity', search: false, align: 'right', width: 124, render: (_, r) => num(formatTons(r.quantity)) },
  { title: '金额 (元)', dataIndex: 'amount', search: false, align: 'right', width: 136, render: (_, r) => money(r.amount) },
  { title: '保证金 (元)', dataIndex: 'deposit', search: false, align: 'right', width: 120, render: (_, r) => money(r.deposit) },
];

export const subscriptionDetails =
  (counterparty: 'publisherName' | 'subscriberName') =>
  (r: SubscriptionView): RowDetail[] => [
    { label: counterparty === 'publisherName' ? '挂牌企业' : '摘牌企业', value: r[counterparty] },
    { label: '摘牌编号', value: r.id },
    { label: '交易类型', value: TRADE_TYPE_TEXT[r.tradeType] },
    { label: '摘牌时间', value: r.createdAt },
    { label: '处理时间', value: r.decidedAt ?? '-' },
    ...(r.declineReason ? [{ label: '拒绝原因', value: r.declineReason }] : []),
  ];

export const subscriptionExcel: ExcelColumn<SubscriptionView>[] = [
  { title: '摘牌编号', value: (r) => r.id },
  { title: '交易编号', value: (r) => r.tradeId, width: 18 },
  { title: '交易类型', value: (r) => TRADE_TYPE_TEXT[r.tradeType] },
  { title: '产品名称', value: (r) => r.productName, width: 16 },
  { title: '挂牌企业', value: (r) => r.publisherName, width: 24 },
  { title: '摘牌企业', value: (r) => r.subscriberName, width: 24 },
  { title: '摘牌数量(吨)', value: (r) => formatTons(r.quantity, false) },
  { title: '价格(元/吨)', value: (r) => formatFen(r.price) },
  { title: '金额(元)', value: (r) => formatFen(r.amount) },
  { title: '保证金(元)', value: (r) => formatFen(r.deposit) },
  { title: '状态', value: (r) => SUBSCRIPTION_STATUS[r.status as keyof typeof SUBSCRIPTION_STATUS] ?? r.status },
  { title: '拒绝原因', value: (r) => r.declineReason ?? '' },
  { title: '摘牌时间', value: (r) => r.createdAt, width: 20 },
  { title: '处理时间', value: (r) => r.decidedAt ?? '', width: 20 },
];

/** The deal tables (挂牌成交, 竞价成交): what was bought and for how much, whole at 1440 px; the parties and times open under the row. */
export const dealColumns: ProColumns<DealView>[] = [
  { title: '交易编号', dataIndex: 'tradeId', width: 150, render: (_, r) => tradeLink(r.tradeId) },
  { title: '产品名称', dataIndex: 'productName', width: 110, search: false, ellipsis: true },
  { title: '成交数量', dataIndex: 'quantity', search: false, align: 'right', width: 124, render: (_, r) => num(formatTons(r.quantity)) },
  { title: '成交价格', dataIndex: 'price', search: false, align: 'right', width: 136, render: (_, r) => num(formatPrice(r.price)) },
  { title: '成交金额 (元)', dataIndex: 'amount', search: false, align: 'right', width: 150, render: (_, r) => <span className="coalx-price">{formatFen(r.amount)}</span> },
  { title: '履约保证金 (元)', dataIndex: 'deposit', search: false, align: 'right', width: 136, render: (_, r) => money(r.deposit) },
];

export const dealDetails =
  (typeText: Record<number, string>) =>
  (r: DealView): RowDetail[] => [
    { label: '成交编号', value: r.dealNo },
    { label: '交易类型', value: typeText[r.tradeType] },
    { label: '成交时间', value: r.createdAt },
    { label: '卖方', value: r.sellerName },
    { label: '买方', value: r.buyerName },
  ];

export const dealExcel: ExcelColumn<DealView>[] = [
  { title: '成交编号', value: (r) => r.dealNo, width: 18 },
  { title: '交易编号', value: (r) => r.tradeId, width: 18 },
  { title: '交易类型', value: (r) => TRADE_TYPE_TEXT[r.tradeType] },
  { title: '产品名称', value: (r) => r.productName, width: 16 },
  { title: '卖方', value: (r) => r.sellerName, width: 24 },
  { title: '买方', value: (r) => r.buyerName, width: 24 },
  { title: '成交数量(吨)', value: (r) => formatTons(r.quantity, false) },
  { title: '成交价格(元/吨)', value: (r) => formatFen(r.price) },
  { title: '成交金额(元)', value: (r) => formatFen(r.amount) },
  { title: '履约保证金(元)', value: (r) => formatFen(r.deposit) },
  { title: '成交时间', value: (r) => r.createdAt, width: 20 },
];
