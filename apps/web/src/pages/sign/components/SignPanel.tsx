import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, message, Modal, Result, Select, Space, Steps, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import type { SignedDocument } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { completeSignature, downloadSignedDocument, prepareSignature, SIGNED_DOCUMENTS_QUERY_KEY } from '@/services/sign';
import { signWithDevice, UKEY_NO_LOCAL_KEY, usableLocalDevices } from '@/lib/ukey';

const MAX_PDF_BYTES = 10 * 1024 * 1024;
const STEPS = ['上传并盖章', '证书签名', '生成签章文件'];

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const toBase64 = (buffer: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)));

/**
 * Signs a PDF in three steps: the server prepares it (seal, signature field, digest), this browser's key device
 * signs the signed attributes, the server assembles the signature into the file.
 */
export default function SignPanel({ enterpriseName }: { enterpriseName: string }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [reason, setReason] = useState('同意签署');
  const [step, setStep] = useState(-1);
  const [signed, setSigned] = useState<SignedDocument | null>(null);
  const devices = useQuery({ queryKey: ['ukey', 'usable-local'], queryFn: usableLocalDevices });
  const usable = devices.data ?? [];
  const chosen = usable.find((d) => d.id === deviceId) ?? usable[0];

  const sign = async () => {
    if (!file || !chosen) return;
    try {
      setStep(0);
      const prepared = await prepareSignature(file, chosen.id, reason.trim() || '同意签署');
      setStep(1);
      const signature = await signWithDevice(chosen.id, fromBase64(prepared.signedAttributes));
      setStep(2);
      const document = await completeSignature(prepared.sessionId, toBase64(signature));
      setSigned(document);
      setStep(-1);
      setFile(null);
      message.success('签章成功');
      void queryClient.invalidateQueries({ queryKey: SIGNED_DOCUMENTS_QUERY_KEY });
    } catch (error) {
      setStep(-1);
      message.error(error instanceof Error && error.message === UKEY_NO_LOCAL_KEY ? UKEY_NO_LOCAL_KEY : errorMessage(error, '签章失败，请重试'));
    }
  };

  const confirm = () => {
    if (!file || !chosen) return;
    Modal.confirm({
      title: '确认签章',
      content: (
        <div className="coalx-sign-confirm">
          <p>
            以 <b>{enterpriseName}</b> 的名义，使用数字证书「{chosen.name}」签署：
          </p>
          <p className="coalx-sign-filename">{file.name}</p>
          <p>签章事由：{reason.trim() || '同意签署'}</p>
          <Typography.Text type="secondary">电子签章与实物公章具有同等法律效力，签署后文件任何改动都会被验证发现。</Typography.Text>
        </div>
      ),
      okText: '确认签章',
      cancelText: '取消',
      onOk: sign,
    });
  };

  if (signed) {
    return (
      <Card>
        <Result
          status="success"
          title="签章成功"
          subTitle={`${signed.fileName}：第 ${signed.signatureIndex} 个签章，${signed.signerName}（${signed.enterpriseName}）于 ${signed.signedAt} 签署`}
          extra={[
            <Button type="primary" key="download" onClick={() => downloadSignedDocument(signed).catch((e: Error) => message.error(e.message))}>
              下载已签章文件
            </Button>,
            <Button key="again" onClick={() => setSigned(null)}>
              继续签署其他文件
            </Button>,
          ]}
        />
      </Card>
    );
  }

  return (
    <Card title="签署 PDF 文件">
      {!devices.isLoading && usable.length === 0 ? (
        <Alert
          className="coalx-sign-alert"
          type="warning"
          showIcon
          message={UKEY_NO_LOCAL_KEY}
          description={
            <span>
              前往 <Link to="/ukey/index">数字证书</Link> 申请，本浏览器当场生成密钥，不到一分钟即可使用。
            </span>
          }
        />
      ) : null}
      <Form layout="vertical" className="coalx-sign-form">
        <Form.Item label="待签文件" required extra="PDF 文件，不超过 10 MB；已有他人签章的文件会追加签章，原签章保持有效">
          <Upload.Dragger
            accept=".pdf,application/pdf"
            maxCount={1}
            fileList={file ? [{ uid: 'pdf', name: file.name, status: 'done', size: file.size }] : []}
            beforeUpload={(picked) => {
              if (!picked.name.toLowerCase().endsWith('.pdf')) message.error('请选择 PDF 文件');
              else if (picked.size > MAX_PDF_BYTES) message.error('文件不能超过 10 MB');
              else setFile(picked);
              return false;
            }}
            onRemove={() => setFile(null)}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">点击或拖拽 PDF 文件到此处</p>
          </Upload.Dragger>
        </Form.Item>
        <Space size="large" wrap>
          <Form.Item label="数字证书" required>
            <Select
              className="coalx-sign-device"
              style={{ width: 320 }}
              loading={devices.isLoading}
              value={chosen?.id}
              placeholder="本机没有可用的数字证书"
              options={usable.map((d) => ({ value: d.id, label: `${d.name}（${d.userName}）` }))}
              onChange={setDeviceId}
            />
          </Form.Item>
          <Form.Item label="签章事由">
            <Input className="coalx-sign-reason" value={reason} maxLength={60} onChange={(e) => setReason(e.target.value)} />
          </Form.Item>
        </Space>
        {step >= 0 ? <Steps className="coalx-sign-steps" size="small" current={step} items={STEPS.map((title) => ({ title }))} /> : null}
        <div>
          <Button type="primary" disabled={!file || !chosen} loading={step >= 0} onClick={confirm}>
            签章
          </Button>
        </div>
      </Form>
    </Card>
  );
}
