import { useEffect, useRef, useState } from 'react';
import type { ActionType } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { yuan } from '@/components/Money';
import { FUNDS_KEYS, getFundInfo, type TransferKind } from '@/services/funds';
import '@/components/funds/funds.css';
import DepositInForm from './components/DepositInForm';
import TransferTable from './components/TransferTable';
import WithdrawForm from './components/WithdrawForm';

/** 出入金申请 (workspace /financial/application): tabs 入金 / 出金, each the own applications and a form. */
export default function FinancialApplicationPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: TransferKind = searchParams.get('tab') === 'withdraw' ? 'withdraw' : 'depositIn';
  const [formOpen, setFormOpen] = useState<TransferKind | null>(null);
  const tables = { depositIn: useRef<ActionType | undefined>(undefined), withdraw: useRef<ActionType | undefined>(undefined) };
  const queryClient = useQueryClient();
  const info = useQuery({ queryKey: FUNDS_KEYS.info, queryFn: getFundInfo });

  // ?apply=1 (the 入金 / 出金 buttons of 资金资产) opens the form once
  useEffect(() => {
    if (searchParams.get('apply') === '1') {
      setFormOpen(tab);
      const next = new URLSearchParams(searchParams);
      next.delete('apply');
      setSearchParams(next, { replace: true });
    }
  }, [searchParams, setSearchParams, tab]);

  const done = (kind: TransferKind) => {
    void tables[kind].current?.reload();
    void queryClient.invalidateQueries({ queryKey: FUNDS_KEYS.all });
  };

  return (
    <div className="coalx-funds-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => setSearchParams({ tab: key }, { replace: true })}
        tabBarExtraContent={
          info.data ? (
            <span style={{ color: 'var(--coalx-text-2)' }}>
              可用余额 <b style={{ color: 'var(--coalx-text)' }}>{yuan(info.data.available)}</b>
              <span style={{ margin: '0 12px' }}>|</span>冻结金额 <b style={{ color: 'var(--coalx-text)' }}>{yuan(info.data.frozen)}</b>
            </span>
          ) : null
        }
        items={[
          { key: 'depositIn', label: '入金', children: <TransferTable kind="depositIn" actionRef={tables.depositIn} onApply={() => setFormOpen('depositIn')} /> },
          { key: 'withdraw', label: '出金', children: <TransferTable kind="withdraw" actionRef={tables.withdraw} onApply={() => setFormOpen('withdraw')} /> },
        ]}
      />
      <DepositInForm open={formOpen === 'depositIn'} onOpenChange={(open) => setFormOpen(open ? 'depositIn' : null)} onDone={() => done('depositIn')} />
      <WithdrawForm open={formOpen === 'withdraw'} onOpenChange={(open) => setFormOpen(open ? 'withdraw' : null)} onDone={() => done('withdraw')} />
    </div>
  );
}
