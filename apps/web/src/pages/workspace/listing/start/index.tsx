import { ShopOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { Card } from 'antd';
import { useNavigate } from 'react-router';
import '@/components/TradeDetail/trade.css';

/** 发起挂牌 (workspace): choose a listing sale or a listing purchase; the form itself is /listingTrade/tradeStart. */
export default function ListingStartPage() {
  const navigate = useNavigate();
  const go = (tradeType: 0 | 1) => navigate(`/listingTrade/tradeStart?tradeType=${tradeType}`);
  return (
    <Card variant="borderless" className="coalx-section-card" title="发起挂牌">
      <div className="coalx-entry-cards">
        <Card className="coalx-entry-card" onClick={() => go(0)} role="button" aria-label="我要卖">
          <ShopOutlined className="coalx-entry-icon" />
          <div className="coalx-entry-title">我要卖 · 挂牌销售</div>
          <div className="coalx-hint">以固定销售价格挂出煤炭资源，采购企业在挂牌时间内摘牌，按时间先后分配数量。</div>
        </Card>
        <Card className="coalx-entry-card buy" onClick={() => go(1)} role="button" aria-label="我要买">
          <ShoppingCartOutlined className="coalx-entry-icon" />
          <div className="coalx-entry-title">我要买 · 挂牌采购</div>
          <div className="coalx-hint">以固定采购价格发布采购需求，供货企业在挂牌时间内摘牌供货。</div>
        </Card>
      </div>
      <div className="coalx-hint" style={{ marginTop: 24 }}>
        挂牌提交后由交易中心审核；审核通过后到挂牌开始时间自动上架，挂牌结束或全部摘完后自动结束并发布结果公告。
      </div>
    </Card>
  );
}
