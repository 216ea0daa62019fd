import { useQuery } from '@tanstack/react-query';
import { Alert, Breadcrumb, Button, Result } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PRICE_LABEL } from '@coalx/shared';
import { useSession } from '@/app/session';
import { getListing } from '@/services/listing';
import { TRADE_TYPE_TEXT } from '@/lib/listing';
import { ListingLoadState } from '@/components/listing/ListingLoadState';
import ListingForm from './components/ListingForm';
import '@/components/trade/trade.css';

/** 发起挂牌 (/listingTrade/tradeStart?tradeType=0|1[&tradeId=]): publish a listing sale or purchase, or edit a draft. */
export default function TradeStartPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { companyInfo } = useSession();
  const tradeId = params.get('tradeId') ?? '';
  const editing = useQuery({ queryKey: ['listing', 'detail', tradeId], queryFn: () => getListing(tradeId), enabled: Boolean(tradeId), retry: false });
  const tradeType: 0 | 1 = (editing.data?.tradeType ?? Number(params.get('tradeType'))) === 1 ? 1 : 0;
  const title = `${tradeId ? '修改' : '发起'}${TRADE_TYPE_TEXT[tradeType]}`;

  if (!companyInfo) {
    return (
      <div className="coalx-page">
        <Result status="403" title="仅企业交易员可以发起挂牌" subTitle="交易中心运营与系统管理账号不属于任何企业" extra={<Link to="/index"><Button type="primary">返回首页</Button></Link>} />
      </div>
    );
  }

  return (
    <div className="coalx-page">
      <Breadcrumb items={[{ title: <Link to="/index">首页</Link> }, { title: <Link to="/listingTrade/query">我的挂牌</Link> }, { title }]} />
      <div className="coalx-page-head">
        <div>
          <h2 className="coalx-page-title">{title}</h2>
          <div className="coalx-page-sub">
            {companyInfo.organName} · {tradeType === 1 ? '发布采购需求，由供货企业摘牌' : '发布销售资源，由采购企业摘牌'} · {PRICE_LABEL[tradeType]}为含税价，单位 元/吨
          </div>
        </div>
        {!tradeId && (
          <Link to={`/listingTrade/tradeStart?tradeType=${tradeType === 1 ? 0 : 1}`} replace>
            <Button>{tradeType === 1 ? '改为挂牌销售' : '改为挂牌采购'}</Button>
          </Link>
        )}
      </div>
      {tradeId && editing.data?.status === 'rejected' && editing.data.rejectReason && (
        <Alert type="error" showIcon message={`交易中心驳回原因：${editing.data.rejectReason}`} description="修改后重新提交审核" />
      )}
      {tradeId && !editing.data ? (
        <ListingLoadState loading={editing.isLoading} error={editing.error} />
      ) : tradeId && editing.data && !['draft', 'rejected'].includes(editing.data.status) ? (
        <Result status="warning" title="只有草稿或被驳回的挂牌可以修改" extra={<Link to="/listingTrade/query"><Button type="primary">返回我的挂牌</Button></Link>} />
      ) : (
        <ListingForm key={`${tradeType}-${tradeId}`} tradeType={tradeType} editing={editing.data} onSaved={() => navigate('/listingTrade/query')} />
      )}
    </div>
  );
}
