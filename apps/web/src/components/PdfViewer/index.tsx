import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, InputNumber, Space, Spin, Tooltip } from 'antd';
import { ColumnWidthOutlined, LeftOutlined, RightOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import type { PDFDocumentProxy, RenderTask } from './pdf';
import { clampZoom, ZOOM_STEP } from './zoom';
import './pdf-viewer.css';

export interface PdfViewerProps {
  /** The document's address; `httpHeaders` carry the token of a private one. */
  url?: string;
  /** Or its bytes, already fetched. */
  data?: Uint8Array;
  httpHeaders?: Record<string, string>;
  /** Shown at the left of the toolbar. */
  title?: ReactNode;
  /** Extra toolbar buttons (download…), at the right. */
  extra?: ReactNode;
  /** Changes when the document behind the same address changed (a new signature), so it loads again. */
  version?: string | number;
  className?: string;
  /** Height of the grey frame before the page is drawn. */
  minHeight?: number;
}

/**
 * A PDF drawn with pdf.js (loaded with the viewer only): one page at a time, previous / next, page n of N, zoom
 * between 50% and 300% or fitted to the width. Used by 文档详情 and by the contract page.
 */
export default function PdfViewer({ url, data, httpHeaders, title, extra, version, className, minHeight = 640 }: PdfViewerProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pageNo, setPageNo] = useState(1);
  const [zoom, setZoom] = useState<number | 'fit'>('fit');
  const [rendering, setRendering] = useState(false);
  const [rendered, setRendered] = useState(0);
  // the headers object is new on every render of the caller; the token inside is what matters
  const headerKey = JSON.stringify(httpHeaders ?? {});

  useEffect(() => {
    if (!url && !data) return;
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    setDoc(null);
    setError(null);
    void import('./pdf')
      .then(({ openPdf }) => openPdf({ url, data, httpHeaders: JSON.parse(headerKey) as Record<string, string> }).promise)
      .then((pdf) => {
        loaded = pdf;
        if (cancelled) void pdf.destroy();
        else {
          setDoc(pdf);
          setPageNo((n) => Math.min(Math.max(1, n), pdf.numPages));
        }
      })
      .catch((e: unknown) => {
        if (cancelled) return;
        const status = (e as { status?: number })?.status;
        setError(status === 404 ? '文档不存在或已删除' : '文档加载失败，请稍后重试');
      });
    return () => {
      cancelled = true;
      void loaded?.destroy();
    };
  }, [url, data, headerKey, version]);

  useEffect(() => {
    if (!doc || !canvas.current) return;
    let task: RenderTask | null = null;
    let cancelled = false;
    setRendering(true);
    void doc.getPage(pageNo).then((page) => {
      if (cancelled || !canvas.current) return;
      const base = page.getViewport({ scale: 1 });
      const width = (frame.current?.clientWidth ?? 900) - 48;
      const scale = zoom === 'fit' ? Math.max(0.25, width / base.width) : zoom;
      const viewport = page.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      const el = canvas.current;
      el.width = Math.floor(viewport.width * ratio);
      el.height = Math.floor(viewport.height * ratio);
      el.style.width = `${Math.floor(viewport.width)}px`;
      el.style.height = `${Math.floor(viewport.height)}px`;
      task = page.render({ canvas: el, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      task.promise
        .then(() => {
          if (!cancelled) setRendered((n) => n + 1);
        })
        .catch(() => undefined)
        .finally(() => !cancelled && setRendering(false));
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, pageNo, zoom]);

  const pages = doc?.numPages ?? 0;
  const currentScale = zoom === 'fit' ? null : zoom;

  return (
    <div className={`coalx-pdf-page${className ? ` ${className}` : ''}`}>
      <div className="coalx-pdf-toolbar">
        {typeof title === 'string' ? (
          <h1 className="coalx-pdf-title" title={title}>
            {title}
          </h1>
        ) : (
          <div className="coalx-pdf-title">{title}</div>
        )}
        <Space size={8} wrap>
          <Button icon={<LeftOutlined />} disabled={pageNo <= 1 || !doc} onClick={() => setPageNo((n) => n - 1)}>
            上一页
          </Button>
          <span className="coalx-pdf-pageinfo" data-testid="pdf-page-info">
            第
            <InputNumber
              size="small"
              min={1}
              max={Math.max(1, pages)}
              value={pageNo}
              disabled={!doc}
              onChange={(v) => v && v >= 1 && v <= pages && setPageNo(v)}
              style={{ width: 56, margin: '0 4px' }}
              aria-label="页码"
            />
            页 / 共 <b data-testid="pdf-page-count">{pages || '-'}</b> 页
          </span>
          <Button disabled={pageNo >= pages || !doc} onClick={() => setPageNo((n) => n + 1)}>
            下一页 <RightOutlined />
          </Button>
          <Tooltip title="缩小">
            <Button aria-label="缩小" icon={<ZoomOutOutlined />} disabled={!doc} onClick={() => setZoom((z) => clampZoom((z === 'fit' ? 1 : z) - ZOOM_STEP))} />
          </Tooltip>
          <span className="coalx-pdf-zoom" data-testid="pdf-zoom">
            {currentScale === null ? '适应宽度' : `${Math.round(currentScale * 100)}%`}
          </span>
          <Tooltip title="放大">
            <Button aria-label="放大" icon={<ZoomInOutlined />} disabled={!doc} onClick={() => setZoom((z) => clampZoom((z === 'fit' ? 1 : z) + ZOOM_STEP))} />
          </Tooltip>
          <Tooltip title="适应宽度">
            <Button aria-label="适应宽度" icon={<ColumnWidthOutlined />} disabled={!doc} onClick={() => setZoom('fit')} />
          </Tooltip>
          {extra}
        </Space>
      </div>
      <div className="coalx-pdf-frame" ref={frame} style={{ minHeight }}>
        {error ? (
          <Alert type="error" showIcon message={error} className="coalx-pdf-error" />
        ) : (
          <>
            {(!doc || rendering) && (
              <Spin className="coalx-pdf-spin" tip="文档加载中" size="large">
                <div style={{ width: 120, height: 80 }} />
              </Spin>
            )}
            <canvas ref={canvas} className="coalx-pdf-canvas" data-testid="pdf-canvas" data-rendered={rendered} data-page={pageNo} data-pages={pages} />
          </>
        )}
      </div>
    </div>
  );
}
