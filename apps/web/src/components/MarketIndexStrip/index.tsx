/**
 * Market-index strip slot of the public layout (spec §2 Home). The home issue fills it with the thermal-coal index
 * (term, price, change); until then it shows its frame.
 */
export default function MarketIndexStrip() {
  return (
    <section className="coalx-index-strip" aria-label="动力煤价格指数">
      <div className="coalx-container coalx-index-strip-inner">
        <span className="coalx-index-strip-label">动力煤价格指数</span>
        <span className="coalx-index-strip-value">--</span>
        <span className="coalx-index-strip-note">指数数据建设中</span>
      </div>
    </section>
  );
}
