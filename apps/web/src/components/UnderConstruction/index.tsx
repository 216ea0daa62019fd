import { Card, Typography } from 'antd';
import { usePageMeta } from '@/app/page-context';

/** Stand-in for a page another issue builds: its title and one sentence. */
export default function UnderConstruction({ title }: { title?: string }) {
  const meta = usePageMeta();
  return (
    <Card variant="borderless" className="coalx-under-construction">
      <Typography.Title level={4}>{title ?? meta.title}</Typography.Title>
      <Typography.Paragraph type="secondary">该功能建设中</Typography.Paragraph>
    </Card>
  );
}
