import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Carousel } from 'antd';
import { useNavigate } from 'react-router';
import { BANNER_INITIAL_DELAY_MS, BANNER_INTERVAL_MS } from '@coalx/shared';
import { BANNER_QUERY_KEY, bannerList, type Banner as BannerItem } from '@/services/content';
import './banner.css';

/** The still picture shown while the banners load, and when none is published. */
function Hero() {
  return (
    <div className="coalx-banner-inner coalx-container">
      <h1 className="coalx-banner-title">安全 · 高效 · 透明的煤炭现货交易</h1>
      <p className="coalx-banner-sub">挂牌交易与竞价交易一站式服务，保证金监管、在线签约、按实结算</p>
      <ul className="coalx-banner-tags">
        <li>挂牌销售</li>
        <li>挂牌采购</li>
        <li>竞价销售</li>
        <li>竞价采购</li>
      </ul>
    </div>
  );
}

function isExternal(url: string) {
  return /^https?:\/\//.test(url);
}

/**
 * Banner carousel of the public layout (spec §2): rotates every 4000 ms, starting after a 1 s delay, and pauses
 * while the pointer is over it. A click opens the banner's detail page (other sites in a new tab).
 */
export default function Banner() {
  const navigate = useNavigate();
  const { data } = useQuery({ queryKey: BANNER_QUERY_KEY, queryFn: bannerList, staleTime: 60_000 });
  const banners = data ?? [];
  const [started, setStarted] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [current, setCurrent] = useState(0);
  useEffect(() => {
    if (banners.length < 2) return;
    const timer = setTimeout(() => setStarted(true), BANNER_INITIAL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [banners.length]);

  const open = (b: BannerItem) => {
    if (!b.detailPageURL) return;
    if (isExternal(b.detailPageURL)) window.open(b.detailPageURL, '_blank', 'noopener,noreferrer');
    else navigate(b.detailPageURL);
  };
  const playing = started && !hovered;

  return (
    <section
      className={`coalx-banner ${banners.length ? 'has-images' : ''}`}
      aria-label="平台横幅"
      data-testid="banner"
      data-playing={playing ? 'true' : 'false'}
      data-current={current}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
    >
      {banners.length === 0 ? (
        <Hero />
      ) : (
        <Carousel
          autoplay={playing}
          autoplaySpeed={BANNER_INTERVAL_MS}
          pauseOnHover
          afterChange={setCurrent}
          dots={{ className: 'coalx-banner-dots' }}
        >
          {banners.map((b, i) => (
            <div key={b.id}>
              <div
                className={`coalx-banner-slide ${b.detailPageURL ? 'clickable' : ''}`}
                role={b.detailPageURL ? 'link' : undefined}
                tabIndex={b.detailPageURL ? 0 : -1}
                onClick={() => open(b)}
                onKeyDown={(e) => e.key === 'Enter' && open(b)}
                data-testid="banner-slide"
              >
                <img src={b.listImage} alt={b.title} loading={i === 0 ? 'eager' : 'lazy'} fetchPriority={i === 0 ? 'high' : 'auto'} draggable={false} />
                <div className="coalx-banner-caption coalx-container">
                  <h2>{b.title}</h2>
                  {b.detailPageURL && <span className="coalx-banner-go">了解详情 &gt;</span>}
                </div>
              </div>
            </div>
          ))}
        </Carousel>
      )}
    </section>
  );
}
