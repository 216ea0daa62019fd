import { useEffect, useState } from 'react';
import { Alert, Button, Input, message, Modal, Space, Spin } from 'antd';
import { CONTRACT_SIDES } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import PdfViewer from '@/components/PdfViewer';
import { fetchUploadFile, reviewPaperContract, type ContractDetail, type ContractUpload } from '@/services/contract';

export interface ReviewModalProps {
  detail: ContractDetail;
  upload: ContractUpload | null;
  onClose: () => void;
  onDone: (detail: ContractDetail) => void;
}

/**
 * The operator checks a paper copy against the generated text: the uploaded file on the left, the contract text
 * on the right, then 确认 or 驳回 (a rejection says why, so the enterprise can fix it).
 */
export default function ReviewModal({ detail, upload, onClose, onDone }: ReviewModalProps) {
  /** An image is shown by a blob address, a PDF drawn from its bytes. */
  const [file, setFile] = useState<{ url: string; pdf: Uint8Array | null } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState<'accept' | 'reject' | null>(null);

  useEffect(() => {
    if (!upload) return;
    let url: string | null = null;
    let cancelled = false;
    setFile(null);
    setLoadError(null);
    setNote('');
    fetchUploadFile(detail.id, upload.id)
      .then(async (blob) => {
        if (cancelled) return;
        const isPdf = blob.type === 'application/pdf' || upload.fileName.toLowerCase().endsWith('.pdf');
        const pdf = isPdf ? new Uint8Array(await blob.arrayBuffer()) : null;
        if (cancelled) return;
        url = pdf ? null : URL.createObjectURL(blob);
        setFile({ url: url ?? '', pdf });
      })
      .catch((e: unknown) => !cancelled && setLoadError(errorMessage(e, '文件加载失败')));
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [detail.id, upload]);

  const decide = async (accept: boolean) => {
    if (!upload || busy) return;
    if (!accept && !note.trim()) {
      message.error('请填写驳回原因，便于企业修改后重新上传');
      return;
    }
    setBusy(accept ? 'accept' : 'reject');
    try {
      const saved = await reviewPaperContract(detail.id, upload.id, { accept, note: note.trim() });
      message.success(accept ? '已确认纸质合同' : '已驳回纸质合同');
      onDone(saved);
      onClose();
    } catch (error) {
      message.error(errorMessage(error, '审核失败，请稍后重试'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      open={upload !== null}
      title={upload ? `审核纸质合同 · ${detail.contractNo} · ${CONTRACT_SIDES[upload.side]}上传` : ''}
      width={1280}
      style={{ top: 24 }}
      maskClosable={false}
      destroyOnHidden
      onCancel={() => !busy && onClose()}
      footer={
        <Space>
          <Button onClick={onClose} disabled={busy !== null}>
            取消
          </Button>
          <Button danger loading={busy === 'reject'} disabled={busy === 'accept'} onClick={() => void decide(false)}>
            驳回
          </Button>
          <Button type="primary" loading={busy === 'accept'} disabled={busy === 'reject'} onClick={() => void decide(true)}>
            确认一致
          </Button>
        </Space>
      }
    >
      {upload ? (
        <div className="coalx-contract-review">
          <div className="coalx-contract-review-file">
            <div className="coalx-contract-review-head">
              上传文件：{upload.fileName}（{upload.submittedBy}，{upload.submittedAt}）
            </div>
            {loadError ? (
              <Alert type="error" showIcon message={loadError} />
            ) : !file ? (
              <Spin tip="文件加载中">
                <div style={{ height: 200 }} />
              </Spin>
            ) : file.pdf ? (
              <PdfViewer data={file.pdf} minHeight={480} className="coalx-contract-review-pdf" />
            ) : (
              <img src={file.url} alt={upload.fileName} className="coalx-contract-review-img" />
            )}
          </div>
          <div className="coalx-contract-review-text">
            <div className="coalx-contract-review-head">合同文本（系统生成，模板 {detail.templateName} 第 {detail.templateVersion} 版）</div>
            <div className="coalx-contract-text" data-testid="contract-text">
              {detail.text.map((paragraph, i) => (
                <p key={i}>{paragraph}</p>
              ))}
            </div>
          </div>
          <div className="coalx-contract-review-note">
            <Input.TextArea
              value={note}
              onChange={(e) => setNote(e.target.value)}
              maxLength={200}
              showCount
              rows={2}
              placeholder="审核意见：确认时可不填；驳回时请写明原因，如「第五条交收地点与合同文本不一致」"
            />
          </div>
        </div>
      ) : null}
    </Modal>
  );
}
