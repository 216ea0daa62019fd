import { FileImageOutlined } from '@ant-design/icons';
import { Empty, Image, Space, Typography } from 'antd';
import type { Attachment } from '@coalx/shared';
import { usePrivateFileUrls } from '@/services/file';

/**
 * An enterprise's private attachments (licence, authorisation letter) and drivers' photos: shown and linked through
 * short-lived signed links (services/file.ts), never with the token in the address.
 */
export default function EnterpriseAttachments({ attachments }: { attachments: Pick<Attachment, 'id' | 'kindText' | 'url' | 'name' | 'contentType'>[] }) {
  const addresses = usePrivateFileUrls(attachments.map((a) => a.url));
  if (attachments.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无附件" />;
  return (
    <Image.PreviewGroup>
      <Space size={24} wrap align="start">
        {attachments.map((a) => {
          const src = addresses[a.url] || undefined;
          return (
            <div key={a.id} className="coalx-attachment">
              {a.contentType.startsWith('image/') ? (
                <Image src={src} width={160} height={120} style={{ objectFit: 'contain', borderRadius: 4, border: '1px solid #e5e7eb', background: '#f7f8fa' }} alt={a.kindText} />
              ) : (
                <a href={src} target="_blank" rel="noopener noreferrer">
                  <FileImageOutlined style={{ fontSize: 48 }} />
                </a>
              )}
              <div style={{ marginTop: 8 }}>
                <Typography.Text strong>{a.kindText}</Typography.Text>
                <br />
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 160 }} title={a.name}>
                  {a.name}
                </Typography.Text>
              </div>
            </div>
          );
        })}
      </Space>
    </Image.PreviewGroup>
  );
}
