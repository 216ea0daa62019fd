import { ToolOutlined } from '@ant-design/icons';
import BidTradeTable from './components/BidTradeTable';
import ListedTradeTable from './components/ListedTradeTable';
import './home-tables.css';

/**
 * Home (/index) inside the public layout. The banner and market-index strip are slots of the layout; the home
 * content issue fills this area with recommended trades, announcements, rule documents and the trade tables.
 */
export default function HomePage() {
  return (
    <>
      <div className="coalx-home-tables">
        <ListedTradeTable tradeType={0} />
        <ListedTradeTable tradeType={1} />
        <BidTradeTable tradeType={2} />
        <BidTradeTable tradeType={3} />
      </div>
      <section className="coalx-home-building" aria-label="首页内容">
        <ToolOutlined className="coalx-home-building-icon" />
        <h2>首页内容建设中</h2>
        <p>该功能建设中</p>
      </section>
    </>
  );
}
