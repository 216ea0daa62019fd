// Must come first: without it antd 5's message and Modal.confirm render nothing on React 19.
import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import App, { queryClient } from './app/App';
import { loadDictionariesAtStart } from './app/dict';
import { session } from './app/session';
import { preloadRoute } from './app/router';
import { HERO_PATHS } from './app/routes';
import { BANNER_QUERY_KEY, bannerList } from './services/content';
import { theme } from './app/theme';
import './styles/global.css';

dayjs.locale('zh-cn');

// Static message/notification/Modal.confirm (used by the request layer and the guard) get the locale and theme too.
ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      {children}
    </ConfigProvider>
  ),
});

// A page chunk of an older deployment that is gone: reload once to get the new index.html.
window.addEventListener('vite:preloadError', (event) => {
  if (!sessionStorage.getItem('coalx_chunk_reload')) {
    sessionStorage.setItem('coalx_chunk_reload', '1');
    event.preventDefault();
    window.location.reload();
  }
});

// Dictionaries are loaded at start (and again after login), spec §3; a signed-in user's cache is checked against the
// version in the user info instead.
void loadDictionariesAtStart(Boolean(session.token()));

// The first paint waits for the page's chunks, and the home page's largest picture for the banner list: ask for
// both now instead of after the layout has rendered.
if (HERO_PATHS.has(preloadRoute(window.location.pathname))) void queryClient.prefetchQuery({ queryKey: BANNER_QUERY_KEY, queryFn: bannerList, staleTime: 60_000 });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
