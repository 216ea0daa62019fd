import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, message, Modal, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { errorMessage } from '@/app/request';
import { PAPER_ACCEPT, paperFileProblem } from '@/lib/contract';
import { CONTRACT_KEYS, uploadPaperContract, type ContractDetail, type ContractSummary } from '@/services/contract';
import './contract.css';

export interface UploadPaperModalProps {
  contract: ContractSummary | null;
  onClose: () => void;
  onUploaded?: (detail: ContractDetail) => void;
}

/**
 * 上传纸质合同: for an enterprise without a certificate, the contract printed, signed and stamped by both sides,
 * scanned or photographed; the trading centre compares it with the generated text and, when it accepts it, the
 * contract takes effect.
 */
export default function UploadPaperModal({ contract, onClose, onUploaded }: UploadPaperModalProps) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    setFile(null);
    setError(null);
    onClose();
  };

  const submit = async () => {
    if (!contract || !file || busy) return;
    setBusy(true);
    setError(null);
    try {
      const detail = await uploadPaperContract(contract.id, file);
      void queryClient.invalidateQueries({ queryKey: CONTRACT_KEYS.all });
      message.success('纸质合同已提交，等待交易中心审核');
      setFile(null);
      onUploaded?.(detail);
      onClose();
    } catch (failure) {
      setError(errorMessage(failure, '上传失败，请重试'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={contract !== null}
      title="上传纸质合同"
      width={560}
      okText="提交审核"
      cancelText="取消"
      maskClosable={false}
      destroyOnHidden
      okButtonProps={{ loading: busy, disabled: !file }}
      cancelButtonProps={{ disabled: busy }}
      onOk={() => void submit()}
      onCancel={close}
    >
      {contract ? (
        <div data-testid="contract-upload">
          <p>
            合同编号：<b>{contract.contractNo}</b>（{contract.sellerName} / {contract.buyerName}）
          </p>
          <Upload.Dragger
            accept={PAPER_ACCEPT}
            maxCount={1}
            disabled={busy}
            fileList={file ? [{ uid: 'paper', name: file.name, status: 'done', size: file.size }] : []}
            beforeUpload={(picked) => {
              const problem = paperFileProblem(picked);
              if (problem) message.error(problem);
              else {
                setFile(picked);
                setError(null);
              }
              return false;
            }}
            onRemove={() => setFile(null)}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">点击或拖拽文件到此处</p>
            <p className="ant-upload-hint">PDF、JPG 或 PNG，不超过 10 MB</p>
          </Upload.Dragger>
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
            请上传按本合同文本打印、由买卖双方签字并加盖公章的纸质合同扫描件或照片。交易中心与合同文本核对一致后确认，合同即生效；驳回时会写明原因，可修改后重新上传。
          </Typography.Paragraph>
          {error ? <Alert style={{ marginTop: 12 }} type="error" showIcon message={error} role="alert" /> : null}
        </div>
      ) : null}
    </Modal>
  );
}
