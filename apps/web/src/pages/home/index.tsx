import { ToolOutlined } from '@ant-design/icons';

/**
 * Home (/index) inside the public layout. The banner and market-index strip are slots of the layout; the home
 * content issue fills this area with recommended trades, announcements, rule documents and the trade tables.
 */
export default function HomePage() {
  return (
    <section className="coalx-home-building" aria-label="首页内容">
      <ToolOutlined className="coalx-home-building-icon" />
      <h2>首页内容建设中</h2>
      <p>该功能建设中</p>
    </section>
  );
}
