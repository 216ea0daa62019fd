import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, List, message, Space, Tag, Upload } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, FileSearchOutlined, InboxOutlined } from '@ant-design/icons';
import type { SignatureVerdict, SignVerifyResult } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { verifyPdf } from '@/services/sign';

const CHANGES_AFTER: Record<SignatureVerdict['changesAfter'], { color: string; text: string }> = {
  none: { color: 'success', text: '签署后未修改' },
  signatures_only: { color: 'processing', text: '其后仅追加签章' },
  modified: { color: 'error', text: '签署后被修改' },
};

function SignatureCard({ verdict }: { verdict: SignatureVerdict }) {
  const c = verdict.certificate;
  return (
    <Card
      size="small"
      className="coalx-sign-verdict"
      title={
        <Space>
          {verdict.valid ? <CheckCircleFilled className="coalx-sign-ok" /> : <CloseCircleFilled className="coalx-sign-bad" />}
          {`签章 ${verdict.index}：${verdict.enterpriseName ?? verdict.signerName ?? '未知签署人'}`}
        </Space>
      }
      extra={
        <Space size={4} wrap>
          <Tag color={verdict.valid ? 'success' : 'error'}>{verdict.valid ? '签章有效' : '签章无效'}</Tag>
          <Tag color={verdict.intact ? 'success' : 'error'}>{verdict.intact ? '内容完整' : '内容被篡改'}</Tag>
          <Tag color={CHANGES_AFTER[verdict.changesAfter].color}>{CHANGES_AFTER[verdict.changesAfter].text}</Tag>
          <Tag color={verdict.trustedIssuer ? 'success' : 'warning'}>{verdict.trustedIssuer ? '平台 CA 签发' : '非平台 CA 签发'}</Tag>
          {verdict.revoked ? <Tag color="error">证书已吊销</Tag> : null}
        </Space>
      }
    >
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label="签署人">{verdict.signerName ?? '-'}</Descriptions.Item>
        <Descriptions.Item label="签署企业">{verdict.enterpriseName ?? '-'}</Descriptions.Item>
        <Descriptions.Item label="统一社会信用代码">{verdict.creditCode ?? '-'}</Descriptions.Item>
        <Descriptions.Item label="签署时间">{verdict.signingTime ?? '-'}</Descriptions.Item>
        <Descriptions.Item label="证书序列号">
          <span className="coalx-ukey-mono">{c?.serialNumber ?? '-'}</span>
        </Descriptions.Item>
        <Descriptions.Item label="证书有效期">{c ? `${c.notBefore} 至 ${c.notAfter}` : '-'}</Descriptions.Item>
        <Descriptions.Item label="颁发者" span={2}>
          {c?.issuer ?? '-'}
        </Descriptions.Item>
        <Descriptions.Item label="证书指纹 (SHA-256)" span={2}>
          <span className="coalx-ukey-mono">{c?.fingerprint ?? '-'}</span>
        </Descriptions.Item>
        {verdict.revoked ? (
          <Descriptions.Item label="吊销" span={2}>
            {`${verdict.revoked.revokedAt}${verdict.revoked.reason ? `（${verdict.revoked.reason}）` : ''}`}
          </Descriptions.Item>
        ) : null}
      </Descriptions>
      <List size="small" className="coalx-sign-findings" dataSource={verdict.findings} renderItem={(finding) => <List.Item>{finding}</List.Item>} />
    </Card>
  );
}

/** Public verification: anyone uploads a PDF (and, for a contract, its number) and sees every signature. */
export default function VerifyPanel() {
  const [file, setFile] = useState<File | null>(null);
  const [number, setNumber] = useState('');
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<SignVerifyResult | null>(null);

  const check = async () => {
    if (!file) return;
    setChecking(true);
    try {
      setResult(await verifyPdf(file, number.trim() || undefined));
    } catch (error) {
      message.error(errorMessage(error, '验证失败，请重试'));
    } finally {
      setChecking(false);
    }
  };

  return (
    <Space direction="vertical" size={16} className="coalx-sign-verify">
      <Card title="签章验证">
        <Form layout="vertical">
          <Form.Item label="待验证文件" extra="任何人都可以验证：上传 PDF，逐个核验其中的电子签章，文件不会被保存">
            <Upload.Dragger
              accept=".pdf,application/pdf"
              maxCount={1}
              fileList={file ? [{ uid: 'pdf', name: file.name, status: 'done', size: file.size }] : []}
              beforeUpload={(picked) => {
                setFile(picked);
                setResult(null);
                return false;
              }}
              onRemove={() => setFile(null)}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">点击或拖拽已签章的 PDF 文件到此处</p>
            </Upload.Dragger>
          </Form.Item>
          <Form.Item label="合同编号（选填）" extra="填写后同时核对该文件是否为平台保存的签署版本">
            <Input className="coalx-sign-number" value={number} maxLength={40} placeholder="如 HT20261123001" onChange={(e) => setNumber(e.target.value)} />
          </Form.Item>
          <Button type="primary" icon={<FileSearchOutlined />} disabled={!file} loading={checking} onClick={check}>
            验证
          </Button>
        </Form>
      </Card>
      {result ? (
        <>
          <Alert
            type={result.allValid && (!result.reference || result.reference.matches) ? 'success' : 'error'}
            showIcon
            message={result.summary}
            description={<span className="coalx-ukey-mono">{`${result.fileName} · SHA-256 ${result.sha256}`}</span>}
          />
          {result.signatures.map((verdict) => (
            <SignatureCard key={verdict.index} verdict={verdict} />
          ))}
        </>
      ) : null}
    </Space>
  );
}
