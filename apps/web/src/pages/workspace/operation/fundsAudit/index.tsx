import { useQuery } from '@tanstack/react-query';
import { Badge, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { listTransferQueue } from '@/services/funds';
import SwitchPanel from '@/components/SwitchPanel';
import '@/components/funds/funds.css';
import QueueTable, { QUEUE_COUNT_KEY } from './components/QueueTable';

async function pendingCounts() {
  const [depositIn, withdraw] = await Promise.all([
    listTransferQueue('depositIn', { pageNo: 1, pageSize: 1, status: 'pending' }),
    listTransferQueue('withdraw', { pageNo: 1, pageSize: 1, status: 'pending' }),
  ]);
  return { depositIn: depositIn.total, withdraw: withdraw.total };
}

const label = (text: string, count: number | undefined) => (
  <span>
    {text} <Badge count={count ?? 0} size="small" offset={[2, -2]} />
  </span>
);

/**
 * 出入金审核 (workspace /operation/fundsAudit, operator): the 入金 and 出金 queues, and the payment-auth switches
 * (the operator's role has no 系统管理 menu, and issue 4 lets operators turn the switches on and off).
 */
export default function FundsAuditPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = searchParams.get('tab') ?? 'depositIn';
  const counts = useQuery({ queryKey: QUEUE_COUNT_KEY, queryFn: pendingCounts, staleTime: 0 });

  return (
    <div className="coalx-funds-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => setSearchParams({ tab: key }, { replace: true })}
        items={[
          { key: 'depositIn', label: label('入金审核', counts.data?.depositIn), children: <QueueTable kind="depositIn" /> },
          { key: 'withdraw', label: label('出金审核', counts.data?.withdraw), children: <QueueTable kind="withdraw" /> },
          { key: 'switch', label: '支付验证开关', children: <SwitchPanel /> },
        ]}
      />
    </div>
  );
}
