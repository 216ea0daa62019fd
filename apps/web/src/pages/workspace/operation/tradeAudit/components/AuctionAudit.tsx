import type { ProColumns } from '@ant-design/pro-components';
import { AuctionState, type AuctionView } from '@coalx/shared';
import { Button } from 'antd';
import { Link } from 'react-router';
import { AuctionDescriptions, AuctionHeadline } from '@/components/auction/AuctionParts';
import BidRecordTable from '@/components/auction/BidRecordTable';
import { auctionColumns, auctionDetails, auctionExcel } from '@/components/auction/columns';
import { approveAuction, listAuctionAudit, rejectAuction } from '@/services/auction';
import AuditQueue from './AuditQueue';

/** The operator's key columns of 我的竞价, without the deposit (the audit adds 推荐); searching is by audit status only. */
const auctionAuditColumns: ProColumns<AuctionView>[] = auctionColumns.filter((c) => c.dataIndex !== 'deposit').map((c) => ({ ...c, search: false as const }));

/** 竞价审核 (operator): the auction audit queue (approve / reject with a reason) and every auction with its bids. */
export default function AuctionAudit() {
  return (
    <AuditQueue
      noun="竞价"
      publisher="发布企业"
      headerTitle="竞价审核与监控"
      exportName="竞价审核"
      columns={auctionAuditColumns}
      details={auctionDetails}
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
