import { Outlet, useLocation } from 'react-router';
import Banner from '@/components/Banner';
import GlobalFooter from '@/components/GlobalFooter';
import GlobalHeader from '@/components/GlobalHeader';
import MarketIndexStrip from '@/components/MarketIndexStrip';
import { HERO_PATHS } from '../routes';
import '@/styles/phone.css';

/** Public common layout (spec §2): header, banner, market-index strip, content, footer. */
export default function PublicLayout() {
  const { pathname } = useLocation();
  const hero = HERO_PATHS.has(pathname);
  return (
    <div className="coalx-public-layout">
      <GlobalHeader />
      {hero && (
        <>
          <div className="coalx-slot-banner">
            <Banner />
          </div>
          <div className="coalx-slot-index">
            <MarketIndexStrip />
          </div>
        </>
      )}
      <main className="coalx-public-content">
        <div className="coalx-container">
          <Outlet />
        </div>
      </main>
      <GlobalFooter />
    </div>
  );
}
