import { useSearchParams } from 'react-router';
import { Tabs } from 'antd';
import { ListingDescriptions, ListingHeadline } from '@/components/listing/ListingDetail';
import { listingColumns, listingDetails, listingExcel } from '@/components/listing/columns';
import { approveListing, listAuditQueue, rejectListing } from '@/services/listing';
import AuctionAudit from './components/AuctionAudit';
import AuditQueue from './components/AuditQueue';

/** 交易审核 (operator): listings and auctions, one tab each. */
export default function TradeAuditPage() {
  // the tab lives in the address: the 待办 待审核竞价 links to ?tab=auction
  const [search, setSearch] = useSearchParams();
  return (
    <Tabs
      destroyOnHidden
      activeKey={search.get('tab') === 'auction' ? 'auction' : 'listing'}
      onChange={(key) => setSearch({ tab: key }, { replace: true })}
      items={[
        { key: 'listing', label: '挂牌审核', children: <ListingAudit /> },
        { key: 'auction', label: '竞价审核与监控', children: <AuctionAudit /> },
      ]}
    />
  );
}

/** Searching by these is done by the audit status filter instead. */
const UNSEARCHED = new Set(['status', 'tradeId', 'tradeType', 'hangState']);

/** The listing audit queue; approve, or reject with a reason. */
function ListingAudit() {
  return (
    <AuditQueue
      noun="挂牌"
      publisher="挂牌企业"
      headerTitle="挂牌审核"
      exportName="挂牌审核"
      columns={listingColumns.map((c) => (UNSEARCHED.has(String(c.dataIndex)) ? { ...c, search: false as const } : c))}
      excel={listingExcel}
      list={(query) => listAuditQueue(query)}
      approve={approveListing}
      reject={rejectListing}
      approveNote={(l) => `通过后 ${l.tradeId} 将在挂牌开始时间自动上架`}
      drawerTitle={(l) => `挂牌审核 ${l.tradeId}`}
      drawerWidth={960}
      details={listingDetails}
      optionWidth={170}
      detail={(l) => (
        <>
          <ListingHeadline listing={l} />
          <ListingDescriptions listing={l} showAudit />
        </>
      )}
    />
  );
}
