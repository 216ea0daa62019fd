import { useEffect, useState } from 'react';
import { Alert, Button, Modal, Spin } from 'antd';
import { CONTRACT_KINDS, type ContractKind } from '@coalx/shared';
import { fetchContractTemplatePdf } from '@/services/contractTemplate';

/** The current version of a kind on the sample deal, as the PDF a contract gets, in the browser's viewer. */
export default function PdfPreviewModal({ kind, version, open, onClose }: { kind: ContractKind; version: number; open: boolean; onClose: () => void }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    let href: string | null = null;
    let cancelled = false;
    setUrl(null);
    setError(null);
    fetchContractTemplatePdf(kind)
      .then((blob) => {
        if (cancelled) return;
        href = URL.createObjectURL(blob);
        setUrl(href);
      })
      .catch((e: Error) => !cancelled && setError(e.message));
    return () => {
      cancelled = true;
      if (href) URL.revokeObjectURL(href);
    };
  }, [open, kind, version]);

  return (
    <Modal
      title={`${CONTRACT_KINDS[kind]} · 第 ${version} 版 · PDF 预览（示例成交）`}
      open={open}
      onCancel={onClose}
      width={960}
      footer={[
        url ? (
          <Button key="tab" href={url} target="_blank">
            在新标签页打开
          </Button>
        ) : null,
        <Button key="close" type="primary" onClick={onClose}>
          关闭
        </Button>,
      ]}
    >
      {error ? <Alert type="error" showIcon message={error} /> : null}
      {!url && !error ? (
        <div className="coalx-template-pdf-loading">
          <Spin tip="正在生成 PDF…">
            <div style={{ height: 80 }} />
          </Spin>
        </div>
      ) : null}
      {url ? <iframe title="合同 PDF 预览" src={url} className="coalx-template-pdf-frame" data-testid="template-pdf-frame" /> : null}
    </Modal>
  );
}
