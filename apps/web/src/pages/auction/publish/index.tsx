import { useQuery } from '@tanstack/react-query';
import { Alert, Breadcrumb, Button, Result } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PRICE_LABEL } from '@coalx/shared';
import { useSession } from '@/app/session';
import { getAuction } from '@/services/auction';
import { AUCTION_TYPE_TEXT } from '@/lib/auction';
import { AuctionLoadState } from '@/components/auction/AuctionParts';
import AuctionForm from './components/AuctionForm';

/** 发布竞价 (/listingTrade/Bidding?tradeType=2|3[&tradeId=]): publish an auction sale or purchase, or edit a draft. */
export default function AuctionPublishPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { companyInfo } = useSession();
  const tradeId = params.get('tradeId') ?? '';
  const editing = useQuery({ queryKey: ['auction', 'detail', tradeId], queryFn: () => getAuction(tradeId), enabled: Boolean(tradeId), retry: false });
  const tradeType: 2 | 3 = (editing.data?.tradeType ?? Number(params.get('tradeType'))) === 3 ? 3 : 2;
  const title = `${tradeId ? '修改' : '发布'}${AUCTION_TYPE_TEXT[tradeType]}`;

  if (!companyInfo) {
    return (
      <div className="coalx-page">
        <Result status="403" title="仅企业交易员可以发布竞价" subTitle="交易中心运营与系统管理账号不属于任何企业" extra={<Link to="/index"><Button type="primary">返回首页</Button></Link>} />
      </div>
    );
  }

  return (
    <div className="coalx-page">
      <Breadcrumb items={[{ title: <Link to="/index">首页</Link> }, { title: <Link to="/auctionTrade/query">我的竞价</Link> }, { title }]} />
      <div className="coalx-page-head">
        <div>
          <h2 className="coalx-page-title">{title}</h2>
          <div className="coalx-page-sub">
            {companyInfo.organName} · {tradeType === 3 ? '发布采购竞价，供货企业报名后逐次降价，价低者得' : '发布销售竞价，采购企业报名后逐次加价，价高者得'} ·{' '}
            {PRICE_LABEL[tradeType]}单位 元/吨
          </div>
        </div>
        {!tradeId && (
          <Link to={`/listingTrade/Bidding?tradeType=${tradeType === 3 ? 2 : 3}`} replace>
            <Button>{tradeType === 3 ? '改为竞价销售' : '改为竞价采购'}</Button>
          </Link>
        )}
      </div>
      {tradeId && editing.data?.status === 'rejected' && editing.data.rejectReason && (
        <Alert type="error" showIcon message={`交易中心驳回原因：${editing.data.rejectReason}`} description="修改后重新提交审核" />
      )}
      {tradeId && !editing.data ? (
        <AuctionLoadState loading={editing.isLoading} error={editing.error} />
      ) : tradeId && editing.data && !['draft', 'rejected'].includes(editing.data.status) ? (
        <Result status="warning" title="只有草稿或被驳回的竞价可以修改" extra={<Link to="/auctionTrade/query"><Button type="primary">返回我的竞价</Button></Link>} />
      ) : (
        <AuctionForm key={`${tradeType}-${tradeId}`} tradeType={tradeType} editing={editing.data} onSaved={() => navigate('/auctionTrade/query')} />
      )}
    </div>
  );
}
