import { useEffect, useState } from 'react';
import { Card, Empty, Skeleton, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fetchSealSvg } from '@/services/sign';

/** The enterprise's electronic seal, as the server draws it from the registered name and credit code. */
export default function SealCard({ enterpriseName }: { enterpriseName: string }) {
  const seal = useQuery({ queryKey: ['sign', 'seal'], queryFn: fetchSealSvg, staleTime: 5 * 60_000 });
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!seal.data) return;
    // an <img> of a blob: the SVG is shown as a picture, never run as markup
    const url = URL.createObjectURL(new Blob([seal.data], { type: 'image/svg+xml' }));
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [seal.data]);
  return (
    <Card title="本企业电子印章" className="coalx-sign-seal-card">
      {seal.isLoading ? <Skeleton.Avatar active size={160} shape="circle" /> : null}
      {seal.isError ? <Empty description="印章加载失败" /> : null}
      {src ? <img className="coalx-sign-seal" src={src} alt={`${enterpriseName}电子印章`} width={160} height={160} /> : null}
      <Typography.Paragraph type="secondary" className="coalx-sign-seal-note">
        印章按企业登记名称和统一社会信用代码自动生成，签章时盖在 PDF 最后一页右下角。
      </Typography.Paragraph>
    </Card>
  );
}
