import { Outlet } from 'react-router';
import GlobalFooter from '@/components/GlobalFooter';
import GlobalHeader from '@/components/GlobalHeader';
import '@/styles/phone.css';

/** Login/register layout (spec §2): header, content, footer. */
export default function UserLayout() {
  return (
    <div className="coalx-user-layout">
      <GlobalHeader />
      <main className="coalx-user-content">
        <Outlet />
      </main>
      <GlobalFooter />
    </div>
  );
}
