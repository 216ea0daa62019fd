import { Spin } from 'antd';

export default function PageLoading({ fullscreen = false }: { fullscreen?: boolean }) {
  return (
    <div className={fullscreen ? 'coalx-page-loading coalx-page-loading-fullscreen' : 'coalx-page-loading'}>
      <Spin size="large" />
    </div>
  );
}
