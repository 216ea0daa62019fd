import type { ProColumns } from '@ant-design/pro-components';
import { AuctionState, type AuctionView } from '@coalx/shared';
import { Button } from 'antd';
import { Link } from 'react-router';
import { AuctionDescriptions, AuctionHeadline, AuctionStateTag } from '@/components/auction/AuctionParts';
import { AUCTION_TYPE_TEXT } from '@/lib/auction';
import BidRecordTable from '@/components/auction/BidRecordTable';
import { auctionColumns, auctionExcel, auctionLink, AuctionStatusBadge } from '@/components/auction/columns';
import { approveAuction, listAuctionAudit, rejectAuction } from '@/services/auction';
import AuditQueue from './AuditQueue';

/**
 * The operator's key columns at widths that keep them whole at 1440 px; one 状态 column says the audit state, and
 * once approved the auction's own state. Type, counts and times open under the row.
 */
const auctionAuditColumns: ProColumns<AuctionView>[] = [
  { title: '交易编号', dataIndex: 'tradeId', width: 150, search: false, render: (_, r) => auctionLink(r.tradeId) },
  { title: '产品名称', dataIndex: 'productName', width: 100, search: false, ellipsis: true },
  {
    title: '状态',
    dataIndex: 'hangState',
    width: 120,
    search: false,
    render: (_, r) => (r.status === 'approved' ? <AuctionStateTag state={r.hangState} result={r.result} /> : <AuctionStatusBadge status={r.status} reason={r.rejectReason} />),
  },
  ...auctionColumns
    .filter((c) => ['起拍价/基价', '当前/成交价', '数量'].includes(String(c.title)))
    .map((c) => ({ ...c, search: false as const, width: c.title === '数量' ? 124 : 136 })),
];

/** 竞价审核 (operator): the auction audit queue (approve / reject with a reason) and every auction with its bids. */
export default function AuctionAudit() {
  return (
    <AuditQueue
      noun="竞价"
      publisher="发布企业"
      headerTitle="竞价审核与监控"
      exportName="竞价审核"
      columns={auctionAuditColumns}
      details={(a) => [
        { label: '交易类型', value: AUCTION_TYPE_TEXT[a.tradeType] },
        { label: '报名 / 出价', value: `${a.enrolCount} 家 / ${a.bidCount} 次` },
        { label: '竞价时间', value: `${a.bidDateStart} 至 ${a.bidDateEnd}` },
      ]}
      excel={auctionExcel}
      list={(query) => listAuctionAudit(query)}
      approve={approveAuction}
      reject={rejectAuction}
      approveNote={(a) => `通过后 ${a.tradeId} 即开放报名`}
      drawerTitle={(a) => `竞价 ${a.tradeId}`}
      drawerWidth={1000}
      optionWidth={200}
      viewLabel={(a) => (a.status === 'approved' ? '监控' : '详情')}
      extraLinks={(a) =>
        a.status === 'approved' && a.hangState >= AuctionState.waiting ? (
          <Link to={`/deal/bidding?tradeId=${a.tradeId}`} target="_blank">
            <Button type="link" size="small">
              竞价室
            </Button>
          </Link>
        ) : null
      }
      detail={(a) => (
        <>
          <AuctionHeadline auction={a} />
          {a.status === 'approved' && <BidRecordTable tradeId={a.tradeId} showEnterprise />}
          <AuctionDescriptions auction={a} showAudit />
        </>
      )}
    />
  );
}
