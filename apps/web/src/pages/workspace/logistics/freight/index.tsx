import { useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useSession } from '@/app/session';
import Authorized from '@/components/Authorized';
import FreightStatementTable, { ALL_STATUS_TABS } from '@/components/freight/FreightStatementTable';
import NewFreightModal from '@/components/freight/NewFreightModal';

/**
 * 运费结算: the transporting enterprise's statements with each driver or carrier company, by state; 新建 drafts one
 * over the period's signed trucks, 确认 records the carrier's signed copy, 付款 the voucher.
 */
export default function FreightSettlementPage() {
  const { userInfo } = useSession();
  const isOperator = userInfo?.role?.code === 'operator';
  const [creating, setCreating] = useState(false);
  const [reloadKey, setReloadKey] = useState(0);
  return (
    <>
      <FreightStatementTable
        title="运费结算单"
        tabs={ALL_STATUS_TABS}
        reloadKey={reloadKey}
        showEnterprise={isOperator}
        toolbar={
          isOperator ? null : (
            <Authorized key="add" action="add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
                新建运费结算单
              </Button>
            </Authorized>
          )
        }
      />
      <NewFreightModal open={creating} onClose={() => setCreating(false)} onSaved={() => { setCreating(false); setReloadKey((k) => k + 1); }} />
    </>
  );
}
