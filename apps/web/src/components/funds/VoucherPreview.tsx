import { useEffect, useState } from 'react';
import { FileImageOutlined } from '@ant-design/icons';
import { Button, Image, message } from 'antd';
import { TOKEN_HEADER } from '@/app/request';
import { session } from '@/app/session';
import { staticUrl } from '@/services/file';

/**
 * A transfer voucher is a private file: it is read with the token header into a blob URL, so the token never ends
 * up in an <img> address (history, proxy logs). The file is fetched only when the user asks to see it.
 */
export async function fetchPrivateFile(url: string): Promise<Blob> {
  const token = session.token();
  const response = await fetch(staticUrl(url), { headers: token ? { [TOKEN_HEADER]: token } : {} });
  if (!response.ok) {
    let text = '凭证读取失败';
    try {
      const body = (await response.json()) as { message?: string };
      if (body?.message) text = body.message;
    } catch {
      // not JSON
    }
    throw new Error(text);
  }
  return response.blob();
}

export default function VoucherPreview({ url }: { url: string | null | undefined }) {
  const [src, setSrc] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [open, setOpen] = useState(false);

  useEffect(() => () => void (src && URL.revokeObjectURL(src)), [src]);

  if (!url) return <span>-</span>;

  const show = async () => {
    if (src) {
      setOpen(true);
      return;
    }
    setLoading(true);
    try {
      const blob = await fetchPrivateFile(url);
      setSrc(URL.createObjectURL(blob));
      setOpen(true);
    } catch (error) {
      message.error(error instanceof Error ? error.message : '凭证读取失败');
    } finally {
      setLoading(false);
    }
  };

  return (
    <>
      <Button type="link" size="small" icon={<FileImageOutlined />} loading={loading} onClick={() => void show()} style={{ paddingInline: 0 }}>
        查看凭证
      </Button>
      {src ? (
        <Image
          src={src}
          alt="转账凭证"
          style={{ display: 'none' }}
          preview={{ visible: open, src, onVisibleChange: (visible) => setOpen(visible) }}
        />
      ) : null}
    </>
  );
}
