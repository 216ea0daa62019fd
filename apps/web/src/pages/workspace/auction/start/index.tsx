import { RiseOutlined, FallOutlined } from '@ant-design/icons';
import { Card } from 'antd';
import { useNavigate } from 'react-router';
import '@/components/TradeDetail/trade.css';

/** 发起竞价 (workspace): choose an auction sale or purchase; the form itself is /listingTrade/Bidding. */
export default function AuctionStartPage() {
  const navigate = useNavigate();
  const go = (tradeType: 2 | 3) => navigate(`/listingTrade/Bidding?tradeType=${tradeType}`);
  return (
    <Card variant="borderless" className="coalx-section-card" title="发起竞价">
      <div className="coalx-entry-cards">
        <Card className="coalx-entry-card" onClick={() => go(2)} role="button" aria-label="竞价销售">
          <RiseOutlined className="coalx-entry-icon" />
          <div className="coalx-entry-title">竞价销售 · 正向竞价</div>
          <div className="coalx-hint">设定起拍价与加价幅度，采购企业报名并冻结保证金后逐次加价，价高者得。</div>
        </Card>
        <Card className="coalx-entry-card buy" onClick={() => go(3)} role="button" aria-label="竞价采购">
          <FallOutlined className="coalx-entry-icon" />
          <div className="coalx-entry-title">竞价采购 · 反向竞价</div>
          <div className="coalx-hint">设定基价与降价幅度，供货企业报名并冻结保证金后逐次降价，价低者得。</div>
        </Card>
      </div>
      <div className="coalx-hint" style={{ marginTop: 24 }}>
        竞价提交后由交易中心审核；审核通过后进入报名，报名截止后待竞价，到竞价时间自动开始。正常竞价结束时有出价则进入延时竞价（默认 120 秒一个周期），一个周期内无新出价即结束并发布结果公告。
      </div>
    </Card>
  );
}
