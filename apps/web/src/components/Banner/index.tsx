/**
 * Banner slot of the public layout. The home issue replaces this still picture with the rotating banners of
 * spec §2 (4000 ms, 1 s initial delay, pause on hover).
 */
export default function Banner() {
  return (
    <section className="coalx-banner" aria-label="平台横幅">
      <div className="coalx-container coalx-banner-inner">
        <h1 className="coalx-banner-title">安全 · 高效 · 透明的煤炭现货交易</h1>
        <p className="coalx-banner-sub">挂牌交易与竞价交易一站式服务，保证金监管、在线签约、按实结算</p>
        <ul className="coalx-banner-tags">
          <li>挂牌销售</li>
          <li>挂牌采购</li>
          <li>竞价销售</li>
          <li>竞价采购</li>
        </ul>
      </div>
    </section>
  );
}
