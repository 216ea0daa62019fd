import { useQuery } from '@tanstack/react-query';
import { ProDescriptions } from '@ant-design/pro-components';
import { Alert, Drawer, Table, Tag, Typography } from 'antd';
import { UKEY_CERT_STATES, type UkeyCertificate, type UkeyDevice } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { queryCertificates } from '@/services/ukey';

const CERT_COLORS = { valid: 'green', expired: 'orange', revoked: 'red' } as const;

/** 证书查询: the device's current certificate in full, and every certificate it had (renewals). */
export default function CertificateDrawer({ device, onClose }: { device: UkeyDevice; onClose: () => void }) {
  const history = useQuery({ queryKey: ['ukey', 'certificates', device.id], queryFn: () => queryCertificates(device.id) });
  const c = device.certificate;
  return (
    <Drawer open width={720} title={`证书详情：${device.name}`} onClose={onClose} destroyOnHidden>
      {c ? (
        <ProDescriptions<UkeyCertificate> column={1} bordered size="small" dataSource={c} labelStyle={{ width: 140 }}>
          <ProDescriptions.Item label="状态" render={() => <Tag color={CERT_COLORS[c.status]}>{UKEY_CERT_STATES[c.status]}</Tag>} />
          <ProDescriptions.Item label="序列号" render={() => <span className="coalx-ukey-mono">{c.serialNumber}</span>} />
          <ProDescriptions.Item label="证书主题" dataIndex="subject" />
          <ProDescriptions.Item label="颁发者" dataIndex="issuer" />
          <ProDescriptions.Item label="有效期" render={() => `${c.notBefore} 至 ${c.notAfter}`} />
          <ProDescriptions.Item label="SHA-256 指纹" render={() => <span className="coalx-ukey-mono">{c.fingerprint}</span>} />
          <ProDescriptions.Item label="使用人" dataIndex="userName" />
          <ProDescriptions.Item label="最近使用" render={() => device.lastUsedAt ?? '尚未使用'} />
          {c.revokedAt ? <ProDescriptions.Item label="吊销" render={() => `${c.revokedAt}（${c.revokeReason ?? ''}）`} /> : null}
        </ProDescriptions>
      ) : null}
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        证书记录
      </Typography.Title>
      {history.isError ? <Alert type="error" showIcon message={errorMessage(history.error)} /> : null}
      <Table<UkeyCertificate>
        rowKey="id"
        size="small"
        loading={history.isLoading}
        dataSource={history.data ?? []}
        pagination={false}
        columns={[
          { title: '序列号', dataIndex: 'serialNumber', render: (v: string) => <span className="coalx-ukey-mono">{v.slice(0, 16)}…</span> },
          { title: '签发时间', dataIndex: 'createdAt', width: 170 },
          { title: '有效期至', dataIndex: 'notAfter', width: 170 },
          { title: '状态', dataIndex: 'status', width: 90, render: (v: UkeyCertificate['status']) => <Tag color={CERT_COLORS[v]}>{UKEY_CERT_STATES[v]}</Tag> },
          { title: '吊销原因', dataIndex: 'revokeReason', render: (v: string | null) => v ?? '-' },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
        平台根证书：<a href="/trade-api/ukey/ca.crt">下载</a>；证书吊销列表 (CRL)：<a href="/trade-api/ukey/crl">下载</a>
      </Typography.Paragraph>
    </Drawer>
  );
}
