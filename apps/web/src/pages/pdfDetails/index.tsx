import { useEffect } from 'react';
import { Alert, Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import PdfViewer from '@/components/PdfViewer';
import { staticUrl } from '@/services/file';

/**
 * pdfDetails?enclosure=<key> (spec §2): a document rendered in the page with pdf.js (components/PdfViewer), page
 * navigation (previous / next, page n of N) and zoom. Public attachments need no sign-in.
 */
export default function PdfDetailsPage() {
  const [params] = useSearchParams();
  const enclosure = params.get('enclosure') ?? '';
  const title = params.get('title') ?? '文档详情';
  const url = enclosure ? staticUrl(enclosure) : '';

  useEffect(() => {
    document.title = `${title} - 文档详情`;
  }, [title]);

  if (!enclosure) return <Alert type="warning" showIcon message="缺少文档参数" />;
  return (
    <PdfViewer
      url={url}
      title={title}
      extra={
        <a href={url} download target="_blank" rel="noopener">
          <Button icon={<DownloadOutlined />}>下载</Button>
        </a>
      }
    />
  );
}
