import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { BrowserRouter } from 'react-router';
import AppRoutes from './router';
import { theme } from './theme';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/** No antd <App>: nothing reads its context, and it would put Modal and notification onto the login page. */
export default function App() {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      <QueryClientProvider client={queryClient}>
        {/* Location changes are not transitions: the guard must see a new location and a new session (after
            sign-in) in the same render, or it sends the login page's old location to /index first. */}
        <BrowserRouter useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
