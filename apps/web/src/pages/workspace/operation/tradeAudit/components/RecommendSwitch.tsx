import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Switch, Tooltip, message } from 'antd';
import { errorMessage } from '@/app/request';
import { markRecommended, recommendedTradeIds } from '@/services/content';

/**
 * 推荐 switch of the trade audit tables: the operator puts an approved trade on the home page's recommended list
 * (or takes it off). The set of recommended trades is read once per table.
 */
export default function RecommendSwitch({ tradeId, approved }: { tradeId: string; approved: boolean }) {
  const client = useQueryClient();
  const ids = useQuery({ queryKey: ['recommend', 'ids'], queryFn: recommendedTradeIds, staleTime: 30_000 });
  const [local, setLocal] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  if (!approved) return <span style={{ color: '#bfbfbf' }}>-</span>;
  const checked = local ?? ids.data?.has(tradeId) ?? false;
  const toggle = async (next: boolean) => {
    setBusy(true);
    try {
      await markRecommended(tradeId, next);
      setLocal(next);
      message.success(next ? '已设为推荐' : '已取消推荐');
      void client.invalidateQueries({ queryKey: ['recommend'] });
    } catch (error) {
      message.error(errorMessage(error, '设置推荐失败'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Tooltip title={checked ? '首页推荐中，点击取消' : '设为首页推荐交易'}>
      <Switch size="small" checked={checked} loading={busy || ids.isLoading} onChange={toggle} checkedChildren="推荐" unCheckedChildren="否" aria-label={`推荐 ${tradeId}`} />
    </Tooltip>
  );
}
