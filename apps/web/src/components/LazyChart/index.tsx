import { useEffect, useRef, useState } from 'react';
import { Empty, Spin } from 'antd';

/**
 * An ECharts chart whose library loads on first show (the shared core of components/delivery/echarts, so pages pay
 * for it only when they draw one): a spinner until it is drawn, redrawn when `option` changes, resized with its box
 * (a page opened in a workspace tab can be laid out after the chart first measured it) and with the window, disposed
 * on unmount. `option` null shows `empty` instead.
 */
export type EchartsModule = Promise<{ echarts: { init: (box: HTMLDivElement) => { setOption: (option: Record<string, unknown>) => void; dispose: () => void; resize: () => void } } }>;
const deliveryCharts = () => import('@/components/delivery/echarts') as unknown as EchartsModule;

export default function LazyChart({
  option,
  empty,
  testId,
  height = 320,
  load = deliveryCharts,
}: {
  option: Record<string, unknown> | null;
  empty: string;
  testId: string;
  height?: number;
  /** which chart kinds to load (default: line and bar) */
  load?: () => EchartsModule;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!option) return;
    let disposed = false;
    let chart: { dispose: () => void; resize: () => void } | null = null;
    const onResize = () => chart?.resize();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(onResize);
    void load().then(({ echarts }) => {
      if (disposed || !box.current) return;
      const instance = echarts.init(box.current);
      chart = instance;
      instance.setOption(option);
      window.addEventListener('resize', onResize);
      observer?.observe(box.current);
      setReady(true);
    });
    return () => {
      disposed = true;
      window.removeEventListener('resize', onResize);
      observer?.disconnect();
      chart?.dispose();
    };
  }, [option, load]);
  if (!option) return <Empty description={empty} />;
  return (
    <div style={{ position: 'relative', height }}>
      {!ready && <Spin style={{ position: 'absolute', left: '50%', top: '45%' }} />}
      <div ref={box} style={{ height }} data-testid={testId} />
    </div>
  );
}
